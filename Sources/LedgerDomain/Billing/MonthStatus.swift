/// Where a pool's month stands in its close (docs/billing.md, "Closing a month"). It is
/// the one name of the three states that the fold writes (`pool_months.status`), the
/// month-close decider judges, and the usage read answers (`status` of `GET …/usage` and
/// of each of its `parts`), so that none of them spells a state of its own.
///
/// The raw values are the wire and the column's text: they never change, so that the
/// JSON of a usage read and the rows the projection wrote stay as they are. A hold's
/// `open` (`proj_billing.holds.status`) is another thing and does not use this type.
public enum MonthStatus: String, Sendable, Codable, CaseIterable {
    /// Usage is recorded and billed as it is folded, in log order. Its charges are
    /// accrued, not posted: a hold (`held`), with the storage part estimated at the
    /// storage price in force today. A month with no usage yet reads as open too.
    case open
    /// `usage.month_closing` is folded: the month is stopped. Its charges are exactly what
    /// was folded before that position, priced with the storage price and allowance
    /// recorded then; ingestion refuses new usage for it, and usage the fold meets anyway
    /// is late usage, kept and never billed. Still a hold until it is closed.
    case closing
    /// `usage.month_closed` is folded: the charges it carries are recorded facts, posted
    /// to the journal as `usage_charge` entries. Only now are the month's amounts final.
    case closed

    /// Whether the month's amounts are final (`final` of a usage read): only once the
    /// charges are posted, never while they are an estimate or frozen but unposted.
    public var isFinal: Bool { self == .closed }
}
