/// How a projection stands against the log, as admission reads it (`ProjectionProgress`).
public struct ProjectionLoad: Sendable, Equatable {
    /// The age of the oldest event it has not applied (zero when it is at the head).
    public var lag: Duration
    /// Events appended that it has not applied.
    public var backlog: Int64
    /// Events per second the projector folds at, as it last said (`FoldRate`); nil until
    /// it has said (a process just started, or a projector that has folded nothing yet).
    public var foldRate: Double?

    public init(lag: Duration, backlog: Int64 = 0, foldRate: Double? = nil) {
        self.lag = lag
        self.backlog = backlog
        self.foldRate = foldRate
    }
}
