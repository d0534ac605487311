import Foundation
import LedgerDomain
import Postgres

/// What the operator commands (`ledger admin …`) read from the billing projection.
public enum BillingAdminQueries {
    /// The position the billing projection has applied.
    public static func position(_ pool: PostgresPool) throws -> Int64 {
        try pool.read { try $0.query("SELECT position FROM proj_billing._checkpoint")[0].requireInt64(0) }
    }

    /// Waits until the billing projection has applied `position`; false on timeout. A
    /// projection the projector has not created yet counts as position 0.
    public static func waitForProjection(_ pool: PostgresPool, position target: Int64, timeout: Double = 30) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        func reached() throws -> Int64 {
            do {
                let row = try pool.read { try $0.query("SELECT position, failed_position, error FROM proj_billing._checkpoint")[0] }
                if let failed = row.int64(1) {
                    throw ProjectionStopped(position: failed, error: row.string(2) ?? "")
                }
                return try row.requireInt64(0)
            } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.undefinedTable {
                return 0
            }
        }
        while try reached() < target {
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    /// The billing projection stopped on a poison event: waiting for it is pointless.
    public struct ProjectionStopped: Error, CustomStringConvertible {
        public var code: String { "projection_stopped" }
        public var position: Int64
        public var error: String
        public var description: String { "the billing projection stopped at position \(position): \(error)" }
    }

    /// A pool-month's status (`open`, `closing`, `closed`), nil when it has no usage yet.
    public static func monthStatus(_ pool: PostgresPool, pool owner: Pool, month: UTCMonth) throws -> String? {
        try pool.read { conn in
            let rows = try conn.query("SELECT status FROM proj_billing.pool_months WHERE pool = $1 AND month = $2",
                                      [owner.description, month.description])
            return rows.rowCount == 0 ? nil : try rows[0].requireString(0)
        }
    }

    /// The charges of a pool-month that is `closing`: exactly what the projection folded
    /// before `usage.month_closing`, priced with the storage price and allowance recorded then.
    public static func closingCharges(_ pool: PostgresPool, pool owner: Pool, month: UTCMonth) throws -> MonthClosed? {
        try BillingReader.read(pool, now: .minimum) { reader in
            guard let pm = try reader.poolMonth(owner, month.description), pm.status == "closing" else { return nil }
            return MonthClosed(pool: owner, month: month, allowanceStorageBytes: pm.allowanceBytes,
                               storagePricePerGiBMonth: pm.storagePrice,
                               charges: pm.charges.values.sorted { $0.projectID < $1.projectID })
        }
    }

    /// A journal entry as the correction command needs it: its accounts and its position.
    public struct EntryRef: Sendable {
        public var id: JournalEntryID
        public var accounts: [String]
        public var pool: Pool
        public var projectID: String?
        public var amount: Millicredits
        public var kind: String
    }

    public static func entry(_ pool: PostgresPool, id: JournalEntryID) throws -> EntryRef? {
        try pool.read { conn in
            let rows = try conn.query("""
                SELECT account, pool, project_id, amount, kind FROM proj_billing.journal WHERE entry_id = $1 ORDER BY account
                """, [id.description])
            guard rows.rowCount > 0, let p = Pool(try rows[0].requireString(1)) else { return nil }
            return EntryRef(id: id, accounts: try rows.rows.map { try $0.requireString(0) }, pool: p,
                            projectID: rows[0].string(2), amount: Millicredits(try rows[0].requireInt64(3)),
                            kind: try rows[0].requireString(4))
        }
    }

    /// Every correction posted to a project's account, oldest first (`ledger audit corrections`).
    public struct CorrectionRow: Sendable, Codable {
        public var correctionID: String
        public var corrects: String
        public var amount: Millicredits
        public var reason: String
        public var actor: String
        public var at: String
        public var position: Int64
        enum CodingKeys: String, CodingKey {
            case correctionID = "correction_id", corrects, amount, reason, actor, at, position
        }
    }

    public static func corrections(_ pool: PostgresPool, account: String) throws -> [CorrectionRow] {
        try pool.read { conn in
            try conn.query("""
                SELECT correction_id, entry_id, amount, reason, actor,
                       to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), position
                FROM proj_billing.corrections WHERE account = $1 ORDER BY position
                """, [account]).rows.map { r in
                CorrectionRow(correctionID: try r.requireString(0), corrects: try r.requireString(1),
                              amount: Millicredits(try r.requireInt64(2)), reason: try r.requireString(3),
                              actor: try r.requireString(4), at: try r.requireString(5), position: try r.requireInt64(6))
            }
        }
    }

    /// Whether a project, payer or hold exists in the projection, and a project's pool now.
    public static func projectExists(_ pool: PostgresPool, _ id: String) throws -> Bool {
        try pool.read { try $0.query("SELECT 1 FROM proj_billing.projects WHERE project_id = $1", [id]).rowCount == 1 }
    }

    public static func payerExists(_ pool: PostgresPool, _ id: String) throws -> Bool {
        try pool.read { try $0.query("SELECT 1 FROM proj_billing.payers WHERE payer_id = $1", [id]).rowCount == 1 }
    }

    public static func currentPool(_ pool: PostgresPool, project id: String, now: Timestamp) throws -> Pool? {
        try BillingReader.read(pool, now: now) { try $0.currentPool(ofProject: id) }
    }

    /// An open hold's amount, or nil.
    public static func openHold(_ pool: PostgresPool, _ id: String) throws -> Millicredits? {
        try pool.read { conn in
            let rows = try conn.query("SELECT amount FROM proj_billing.holds WHERE hold_id = $1 AND status = 'open'", [id])
            return rows.rowCount == 0 ? nil : Millicredits(try rows[0].requireInt64(0))
        }
    }
}
