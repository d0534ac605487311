import Postgres

/// The billing projection's part of the console's search and lists: payers and projects
/// by id and name, journal entries by id prefix.
extension BillingReadModel {
    /// A journal entry whose id starts with what was searched, with the account it posts to.
    public struct EntryMatch: Sendable, Equatable {
        public var entryID: String
        public var account: String
        public var position: Int64
        public var occurredAtMicroseconds: Int64
    }

    /// The payers (`payer_id`, `name`), for searches and pages by name.
    public var payerDirectory: DirectoryTable {
        DirectoryTable(connections: connections, table: "proj_billing.payers", id: "payer_id", name: "name")
    }

    /// The projects (`project_id`, `name`), for searches and pages by name.
    public var projectDirectory: DirectoryTable {
        DirectoryTable(connections: connections, table: "proj_billing.projects", id: "project_id", name: "name")
    }

    /// Journal entries whose id starts with `prefix`, by id then account, at most `limit`
    /// rows. The journal holds an entry per event that moved money, so the prefix is
    /// walked through `journal_entry_idx` from `prefix` on and only the first `window`
    /// rows there are looked at: the work is bounded however large the journal.
    public func entries(prefix: String, limit: Int, window: Int = 500) throws -> [EntryMatch] {
        try connections.read { conn in
            guard try conn.query("SELECT to_regclass('proj_billing.journal') IS NOT NULL")[0].bool(0) == true else { return [] }
            return try conn.query("""
                SELECT entry_id, account, position, (extract(epoch FROM occurred_at) * 1000000)::bigint FROM (
                    SELECT entry_id, account, position, occurred_at FROM proj_billing.journal
                    WHERE entry_id >= $1 ORDER BY entry_id LIMIT $3) w
                WHERE starts_with(entry_id, $1) ORDER BY entry_id, account LIMIT $2
                """, [prefix, Int64(limit), Int64(window)]).rows.map { r in
                EntryMatch(entryID: try r.requireString(0), account: try r.requireString(1), position: try r.requireInt64(2),
                           occurredAtMicroseconds: try r.requireInt64(3))
            }
        }
    }
}
