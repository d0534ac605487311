import Dispatch

/// Cumulative time the appender spent in each phase of its transactions, so that the
/// benchmark can say where the time goes.
public struct AppendPhases: Sendable, Equatable {
    public var transactions = 0
    /// Taking the lock and reading the head, stream versions and idempotency keys.
    public var lockAndRead: Double = 0
    /// Judging the appends and computing the hash chain, which happens while the COPY
    /// streams the rows judged before.
    public var plan: Double = 0
    /// The rest of the COPY: waiting for the server to insert and check the rows.
    public var write: Double = 0
    /// Notifying and committing.
    public var commit: Double = 0
}

/// Seconds between successive laps.
struct PhaseClock {
    private var last = DispatchTime.now().uptimeNanoseconds

    mutating func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { last = now }
        return Double(now - last) / 1e9
    }
}
