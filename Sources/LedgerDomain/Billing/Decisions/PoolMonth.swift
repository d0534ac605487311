/// A pool's month: `UTCMonth` of `pool`.
public struct PoolMonth: Sendable, Hashable, CustomStringConvertible {
    public var pool: Pool
    public var month: UTCMonth
    public init(_ pool: Pool, _ month: UTCMonth) { self.pool = pool; self.month = month }
    public var description: String { "\(month) of \(pool)" }

    /// `month-<pool>-<YYYY-MM>`: where the month's close is recorded (`usage.month_closing`
    /// at version 1, `usage.month_closed` at 2). Usage for the month is appended expecting
    /// it to have no event, so that once the closing is in the log no usage of the month
    /// can be: the log's expected versions make the gate exact, whatever the projection
    /// has seen.
    public var stream: String { "month-\(pool)-\(month)" }
}
