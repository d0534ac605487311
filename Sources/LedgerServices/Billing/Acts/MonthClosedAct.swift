import LedgerDomain

/// Phase 2 of a month's close: once the billing projection has folded the month's
/// `usage.month_closing`, the charges it froze are recorded as facts in
/// `usage.month_closed`, which posts them, under a key that names the month.
public struct MonthClosedAct: LedgerAct {
    public var month: PoolMonth

    public init(_ month: PoolMonth) { self.month = month }

    public func decide(_ reads: ActReads) throws -> Decision {
        _ = try reads.billingVersion(covering: month.stream)
        return try MonthCloseDecider.closed(month, closing: try reads.billing.closingMonth(month))
    }

    /// The month's key holds other charges: another close recorded them meanwhile.
    public func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict? {
        .refused(Refusal(.monthClosed,
            "another close of \(month.month) for \(month.pool) recorded different charges meanwhile (the storage price changed?); check the log"))
    }
}
