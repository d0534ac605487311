/// How a projection stands against the log, as admission reads it (`ProjectionProgress`).
public struct ProjectionLoad: Sendable, Equatable {
    /// The age of the oldest event it has not applied (zero when it is at the head).
    public var lag: Duration
    /// Events appended that it has not applied.
    public var backlog: Int64
    /// Events per second it folded lately while it had work, nil until it has been
    /// measured (a projection that is always at the head never is, and needs no rate).
    public var foldRate: Double?

    public init(lag: Duration, backlog: Int64 = 0, foldRate: Double? = nil) {
        self.lag = lag
        self.backlog = backlog
        self.foldRate = foldRate
    }
}
