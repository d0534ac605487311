import EventStore
import LedgerDomain
import Postgres
import ProjectionEngine

/// The drift check's view of billing (docs/operations.md, "Drift"): an account is a payer
/// or a project (`payer:acme`, `project:acme-web`); its balance rows, journal and
/// corrections are what is folded again and compared.
///
/// Every event that writes an account's balance or journal lies on a stream of one of the
/// pools it is billed to (its own, and for a project each pool that ever funded it or that
/// its holds were placed on): the
/// pool owner's stream (credits, plans, corrections), the streams of the holds on the pool,
/// and the streams of the pool's months (the close that posts the charges). A correction
/// names an entry of the same pool, so a pool's streams fold on their own. Usage is not
/// folded: it counts against a pool's free units shared by all its projects, and what a
/// month charges is posted from the close's own record, which is folded.
extension BillingProjection: AccountSampling {
    public func isAccount(_ account: String) -> Bool { Pool(account) != nil }

    /// The event types whose accounts count as recently changed: those that write a
    /// balance or the journal, and the creation of an account.
    static let changingTypes = [PayerCreated.type, ProjectCreated.type, ProjectFundingChanged.type, CreditPosted.type,
                                EntryCorrected.type, HoldPlaced.type, HoldCaptured.type, HoldReleased.type,
                                MonthClosing.type, MonthClosed.type]

    public func recentAccounts(through position: Int64, window: Int64, limit: Int, live: String,
                               on connection: PostgresConnection) throws -> [String] {
        enum Touch { case accounts([String]), hold(String) }
        var touches: [Touch] = []
        for row in try connection.query("""
            SELECT type, stream, data->>'pool', data->>'project_id', data->>'payer_id', data->>'hold_id' FROM events
            WHERE position > $1 AND position <= $2 AND type = ANY($3::text[])
            ORDER BY position DESC
            """, [position - window, position, PostgresTextArray(Self.changingTypes)]).rows {
            let type = try row.requireString(0)
            let pool = row.string(2).flatMap(Pool.init)
            let project = row.string(3).map { "project:" + $0 }
            switch type {
            case PayerCreated.type: touches.append(.accounts(row.string(4).map { ["payer:" + $0] } ?? []))
            case EntryCorrected.type: touches.append(.accounts(Self.pool(ownerStream: try row.requireString(1)).map { [$0.description] } ?? []))
            case HoldCaptured.type, HoldReleased.type: if let hold = row.string(5) { touches.append(.hold(hold)) }
            default: touches.append(.accounts([project, pool?.description].compactMap { $0 }))
            }
        }
        var holds: [String: [String]] = [:]
        let holdIDs = touches.compactMap { if case .hold(let id) = $0 { id } else { nil } }
        if !holdIDs.isEmpty {
            for row in try connection.query("""
                SELECT hold_id, project_id, pool FROM \(connection.quoteIdentifier(live)).holds WHERE hold_id = ANY($1::text[])
                """, [PostgresTextArray(holdIDs)]).rows {
                holds[try row.requireString(0)] = ["project:" + (try row.requireString(1)), try row.requireString(2)]
            }
        }
        var out: [String] = []
        var seen = Set<String>()
        for touch in touches {
            let accounts: [String]
            switch touch {
            case .accounts(let a): accounts = a
            case .hold(let id): accounts = holds[id] ?? []
            }
            for account in accounts where out.count < limit && isAccount(account) && seen.insert(account).inserted {
                out.append(account)
            }
            if out.count >= limit { break }
        }
        return out
    }

    public func randomAccounts(limit: Int, live: String, on connection: PostgresConnection) throws -> [String] {
        let l = connection.quoteIdentifier(live)
        return try connection.query("""
            SELECT account FROM (SELECT 'payer:' || payer_id AS account FROM \(l).payers
                                 UNION ALL SELECT 'project:' || project_id FROM \(l).projects) a
            ORDER BY random() LIMIT $1
            """, [Int64(limit)]).rows.map { try $0.requireString(0) }
    }

    public func streams(of account: String, live: String, on connection: PostgresConnection) throws -> [String] {
        guard let pool = Pool(account) else { return [] }
        let l = connection.quoteIdentifier(live)
        var pools = [pool]
        if case .project(let id) = pool {
            // Every pool that funded it, and any its holds were placed on.
            for row in try connection.query("""
                SELECT pool FROM \(l).funding WHERE project_id = $1 UNION SELECT pool FROM \(l).holds WHERE project_id = $1 ORDER BY 1
                """, [id]).rows {
                if let funder = Pool(try row.requireString(0)), funder != pool { pools.append(funder) }
            }
        }
        let names = PostgresTextArray(pools.map(\.description))
        var streams = pools.map(\.ownerStream)
        streams += try connection.query("SELECT hold_id FROM \(l).holds WHERE pool = ANY($1::text[]) ORDER BY hold_id", [names])
            .rows.map { HoldDecider.stream(try $0.requireString(0)) }
        for row in try connection.query("SELECT pool, month FROM \(l).pool_months WHERE pool = ANY($1::text[]) ORDER BY 1, 2", [names]).rows {
            if let pool = Pool(try row.requireString(0)), let month = UTCMonth(try row.requireString(1)) {
                streams.append(PoolMonth(pool, month).stream)
            }
        }
        return streams
    }

    /// The posted balance and what is held (as a rebuild names them), then each balance row
    /// (per pool and column), each journal entry and each correction of the accounts that
    /// differs, or is on one side only.
    public func sampleDifferences(accounts: [String], sample: String, live: String,
                                  on connection: PostgresConnection) throws -> [AccountDifference] {
        guard !accounts.isEmpty else { return [] }
        let s = connection.quoteIdentifier(sample), l = connection.quoteIdentifier(live)
        let only = PostgresTextArray(accounts)
        var out = try Self.balanceDifferences(build: sample, live: live, accounts: accounts, on: connection)
        func differences(_ sql: String) throws {
            for row in try connection.query(sql, [only]).rows {
                out.append(AccountDifference(account: try row.requireString(0), figure: try row.requireString(1),
                                             live: row.string(2) ?? "absent", rebuilt: row.string(3) ?? "absent"))
            }
        }
        let columns = BillingBalanceColumn.allCases.map(\.rawValue)
        try differences("""
            SELECT coalesce(l.account, s.account), 'balance ' || coalesce(l.pool, s.pool) || ' ' || f.figure, f.live::text, f.refolded::text
            FROM (SELECT * FROM \(l).balances WHERE account = ANY($1::text[])) l
            FULL JOIN (SELECT * FROM \(s).balances WHERE account = ANY($1::text[])) s ON l.account = s.account AND l.pool = s.pool
            CROSS JOIN LATERAL (VALUES \(columns.map { "('\($0)', l.\($0), s.\($0))" }.joined(separator: ", "))) AS f (figure, live, refolded)
            WHERE coalesce(f.live, 0) <> coalesce(f.refolded, 0)
            ORDER BY 1, 2
            """)
        // An entry on one side only shows as its kind and amount; one on both, column by column.
        let liveJournal = "(SELECT * FROM \(l).journal WHERE account = ANY($1::text[]))"
        let refoldedJournal = "(SELECT * FROM \(s).journal WHERE account = ANY($1::text[]))"
        try differences("""
            SELECT coalesce(l.account, s.account), 'journal ' || coalesce(l.entry_id, s.entry_id),
                   l.kind || ' ' || l.amount::text, s.kind || ' ' || s.amount::text
            FROM \(liveJournal) l FULL JOIN \(refoldedJournal) s ON l.account = s.account AND l.position = s.position AND l.idx = s.idx
            WHERE l.account IS NULL OR s.account IS NULL
            ORDER BY 1, coalesce(l.position, s.position), coalesce(l.idx, s.idx)
            """)
        let entryColumns = ["entry_id", "kind", "source", "amount", "project_id", "pool", "month", "hold_id", "corrects", "description",
                            "occurred_at"]
        try differences("""
            SELECT l.account, 'journal ' || s.entry_id || ' ' || f.figure, coalesce(f.live, 'null'), coalesce(f.refolded, 'null')
            FROM \(liveJournal) l JOIN \(refoldedJournal) s ON l.account = s.account AND l.position = s.position AND l.idx = s.idx
            CROSS JOIN LATERAL (VALUES \(entryColumns.map { "('\($0)', l.\($0)::text, s.\($0)::text)" }.joined(separator: ", "))) AS f (figure, live, refolded)
            WHERE f.live IS DISTINCT FROM f.refolded
            ORDER BY 1, l.position, l.idx, 2
            """)
        try differences("""
            SELECT coalesce(l.account, s.account), 'correction ' || coalesce(l.correction_id, s.correction_id) || ' of ' || coalesce(l.entry_id, s.entry_id),
                   CASE WHEN l.account IS NOT NULL THEN l.amount::text || ' (' || l.reason || ')' END,
                   CASE WHEN s.account IS NOT NULL THEN s.amount::text || ' (' || s.reason || ')' END
            FROM (SELECT * FROM \(l).corrections WHERE account = ANY($1::text[])) l
            FULL JOIN (SELECT * FROM \(s).corrections WHERE account = ANY($1::text[])) s
                ON l.account = s.account AND l.entry_id = s.entry_id AND l.correction_id = s.correction_id
            WHERE l.account IS NULL OR s.account IS NULL OR l::text <> s::text
            ORDER BY 1, 2
            """)
        return out
    }

    /// The pool whose owner's stream this is (`payer-acme` → `payer:acme`).
    static func pool(ownerStream stream: String) -> Pool? {
        if stream.hasPrefix("payer-") { return Pool("payer:" + stream.dropFirst(6)) }
        if stream.hasPrefix("project-") { return Pool("project:" + stream.dropFirst(8)) }
        return nil
    }
}
