/// The rate the projector folds at: the events of its last few batches over the time they
/// took, as one ratio of sums. A batch's time runs from its start to the next one's, less
/// any wait for the log: its fixed cost (a transaction, each projection's statements) is in
/// it, so the rate is the one of batches the size the projector is folding now, which is
/// what a write waits behind.
///
/// Not an average of each batch's own rate: batches differ in size (a small one at the
/// head, then a large one), and a mean of ratios weighs a fast large batch as much as the
/// slow small ones, which reads high. A high rate lets admission take more than the
/// projector folds within the bound; the ratio of sums is the rate it actually kept.
public struct FoldRate: Sendable, Equatable {
    /// Batches kept: enough to span a few sizes of batch, few enough to follow a change of
    /// the machine's speed within a second of folding.
    public static let window = 8

    private var events: [Int64] = []
    private var seconds: [Double] = []
    private var next = 0

    public init() {}

    /// A batch of `events` that took `seconds`.
    public mutating func add(events: Int64, seconds: Double) {
        precondition(events > 0 && seconds > 0, "a fold rate sample is a positive number of events over a positive time")
        if self.events.count < Self.window {
            self.events.append(events)
            self.seconds.append(seconds)
        } else {
            self.events[next] = events
            self.seconds[next] = seconds
        }
        next = (next + 1) % Self.window
    }

    /// Events per second over the batches kept; nil before the first.
    public var perSecond: Double? {
        guard !events.isEmpty else { return nil }
        return Double(events.reduce(0, +)) / seconds.reduce(0, +)
    }
}
