/// A pool's month: `UTCMonth` of `pool`.
public struct PoolMonth: Sendable, Hashable, CustomStringConvertible {
    public var pool: Pool
    public var month: UTCMonth
    public init(_ pool: Pool, _ month: UTCMonth) { self.pool = pool; self.month = month }
    public var description: String { "\(month) of \(pool)" }
}
