import LedgerDomain
import Projections

/// J3: a correction of a journal entry, `MoneyDecider.correct` with its bound. It judges
/// on the billing projection once that holds the whole pool stream, and expects the
/// version it judged, so a correction recorded meanwhile is never missed by the bound.
public struct CorrectAct: LedgerAct {
    public var entry: JournalEntryID
    public var amount: Millicredits
    public var reason: String

    public init(entry: JournalEntryID, amount: Millicredits, reason: String) {
        self.entry = entry
        self.amount = amount
        self.reason = reason
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        var version: Int64?
        try reads.requireCreated(BillingProjection())
        var original = try reads.billing.entry(entry)
        if let pool = original?.pool {
            version = try reads.billingVersion(covering: pool.ownerStream)
            original = try reads.billing.entry(entry)
        } else {
            // "No such entry" only once the projection holds the whole log.
            try reads.requireBillingAtHead()
            original = try reads.billing.entry(entry)
        }
        return try MoneyDecider.correct(original, id: entry, amount: amount, reason: reason, streamVersion: version)
    }
}
