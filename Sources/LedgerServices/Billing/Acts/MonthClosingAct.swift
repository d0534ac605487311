import LedgerDomain

/// Phase 1 of a month's close: `usage.month_closing` stops the month, and what the
/// projection folded before it is the month's usage. A month already closing is
/// `AlreadyRecorded`: the close resumes at phase 2 (`MonthClosedAct`).
public struct MonthClosingAct: LedgerAct {
    public var month: PoolMonth
    public var force: Bool

    public init(_ month: PoolMonth, force: Bool) {
        self.month = month
        self.force = force
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let now = reads.now()
        try MonthCloseDecider.checkEnded(month.month, now: now, force: force)
        let state = try reads.accountsState(month.pool)
        _ = try reads.billingVersion(covering: month.stream)
        guard let decision = try MonthCloseDecider.closing(month, status: try reads.billing.monthStatus(month), now: now,
                                                           force: force, state: state) else {
            throw AlreadyRecorded("\(month.month) is already closing for \(month.pool)")
        }
        return decision
    }
}
