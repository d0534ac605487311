import LedgerDomain
import ProjectionEngine
import Projections

/// J1–J4: a page of an account's posted entries, oldest first, after the entry a cursor
/// names (`GET …/journal`, the console's journal, `ledger export journal`).
public struct JournalQuery: LedgerQuery {
    /// A page's size when none is asked, and the most one page may hold.
    public static let defaultLimit = 50
    public static let maximumLimit = 200

    public var account: BillingAccount
    public var after: JournalEntryID?
    public var limit: Int

    /// `limit` is from 1 to `maximumLimit` for the API; operators' tools may ask more.
    public init(_ account: BillingAccount, after: JournalEntryID? = nil, limit: Int = JournalQuery.defaultLimit) {
        precondition(limit >= 1, "a journal page holds at least one entry")
        self.account = account
        self.after = after
        self.limit = limit
    }

    public var projections: [any Projection] { [BillingProjection()] }
    public var subject: QuerySubject { .account(account) }

    /// A page of posted entries, as the read model returned it: the front ends write it
    /// straight from its rows.
    public typealias Page = JournalPage

    public func read(_ reads: QueryReads) throws -> Page? {
        try reads.billing.journalPage(account, after: after, limit: limit)
    }
}
