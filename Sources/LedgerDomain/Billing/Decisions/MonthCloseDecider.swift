/// Decides the two-phase month close of docs/billing.md: `usage.month_closing` stops the
/// month (what the projection folded before it is the month's usage), then
/// `usage.month_closed` records the charges as facts and posts them. Both carry keys that
/// name the month, so each is recorded once however many operators close it.
public enum MonthCloseDecider {
    /// Where a pool's month stands: nil (no usage yet, which closes as an open month does)
    /// or its `MonthStatus`.
    public typealias Status = MonthStatus?

    public static func closingKey(_ month: PoolMonth) -> String { "month-closing:\(month.pool):\(month.month)" }
    public static func closedKey(_ month: PoolMonth) -> String { "month-close:\(month.pool):\(month.month)" }

    /// Phase 1, or nil when the month is already closing (a close that stopped after its
    /// first event is resumed at phase 2).
    public static func closing(_ month: PoolMonth, status: Status, now: Timestamp, force: Bool,
                               state: AccountsDecider.State) throws(Refusal) -> Decision? {
        try checkEnded(month.month, now: now, force: force)
        try AccountsDecider.requireKnownPool(month.pool, state)
        switch status {
        case .closed: throw Refusal(.monthClosed, "\(month.month) is already closed for \(month.pool)")
        case .closing: return nil
        case .open, nil:
            return Decision(PendingEvent(MonthClosing(pool: month.pool, month: month.month), on: month.stream),
                            idempotencyKey: closingKey(month))
        }
    }

    /// A month is closed once it has ended (usage may still arrive before), unless forced.
    public static func checkEnded(_ month: UTCMonth, now: Timestamp, force: Bool) throws(Refusal) {
        guard let end = month.next?.start else {
            throw Refusal(.outOfRange, "\(month) is past the last month the ledger knows")
        }
        guard end <= now || force else {
            throw Refusal(.monthNotEnded,
                "\(month) has not ended: it ends at \(end.iso8601) and it is \(now.iso8601); usage may still arrive (pass --force to close it anyway)")
        }
    }

    /// Phase 2: the charges the projection froze when the month started closing.
    public static func closed(_ month: PoolMonth, closing: ClosingMonth?) throws(Refusal) -> Decision {
        guard let closing else {
            // Only another close can have moved the month on from `closing` meanwhile.
            throw Refusal(.monthClosed, "\(month.month) was closed for \(month.pool) by another operator meanwhile")
        }
        let event = MonthClosed(pool: month.pool, month: month.month, allowanceStorageBytes: closing.allowanceBytes,
                                storagePricePerGiBMonth: closing.storagePrice,
                                charges: closing.charges.sorted { $0.projectID < $1.projectID })
        return Decision(PendingEvent(event, on: month.stream), idempotencyKey: closedKey(month))
    }
}
