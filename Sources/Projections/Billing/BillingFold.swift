import EventStore
import LedgerDomain
import Postgres

/// Applies one event to the billing tables. Every handler reads only the event and the
/// projection's own tables, never the clock.
struct BillingFold {
    let event: RecordedEvent
    let db: ProjectionContext

    var position: Int64 { event.position }
    var occurredAt: String { event.occurredAt.iso8601 }

    static func account(_ pool: Pool) -> String { pool.description }
    static func account(project: String) -> String { "project:" + project }

    /// The balance column a journal entry moves.
    enum BalanceColumn: String {
        case creditPlan = "credit_plan", creditPurchase = "credit_purchase", creditGrant = "credit_grant"
        case correction, usagePosted = "usage_posted", holdPosted = "hold_posted", holdHeld = "hold_held"

        init(_ source: CreditSource) {
            switch source {
            case .plan: self = .creditPlan
            case .purchase: self = .creditPurchase
            case .grant: self = .creditGrant
            }
        }
    }

    func ensurePool(_ pool: Pool) throws {
        db.enqueue("INSERT INTO pools (pool) VALUES ($1) ON CONFLICT DO NOTHING", [pool.description])
    }

    /// Adds to one column of an account's balance on a pool, creating the row on first use.
    func addToBalance(_ account: String, pool: Pool, _ column: BalanceColumn, _ amount: Int128) throws {
        db.enqueue("""
            INSERT INTO balances AS b (account, pool, \(column.rawValue)) VALUES ($1, $2, $3)
            ON CONFLICT (account, pool) DO UPDATE SET \(column.rawValue) = b.\(column.rawValue) + excluded.\(column.rawValue)
            """, [account, pool.description, amount])
    }

    /// A journal entry: to `accounts` (the consumer first, then the pool when they differ).
    struct Entry {
        var index: Int32
        var kind: String
        var source: String?
        var amount: Int128
        var projectID: String?
        var pool: Pool
        var month: String?
        var holdID: String?
        var corrects: String?
        var description: String
    }

    func post(_ entry: Entry, to accounts: [String], balance column: BalanceColumn) throws {
        let id = JournalEntryID(position: position, index: entry.index).description
        for account in Set(accounts).sorted() {
            db.enqueue("""
                INSERT INTO journal (account, position, idx, entry_id, kind, source, amount, project_id, pool, month,
                                     hold_id, corrects, description, occurred_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
                """, [account, position, Int(entry.index), id, entry.kind, entry.source, entry.amount, entry.projectID,
                      entry.pool.description, entry.month, entry.holdID, entry.corrects, entry.description, occurredAt])
            try addToBalance(account, pool: entry.pool, column, entry.amount)
        }
    }

    /// The accounts an entry of `project` on `pool` is written to.
    static func accounts(project: String?, pool: Pool) -> [String] {
        var out = [account(pool)]
        if let project { out.insert(account(project: project), at: 0) }
        return out
    }
}
