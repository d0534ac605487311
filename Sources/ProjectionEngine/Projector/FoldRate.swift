/// The rate a projection folds at while it has work: the events of its last few advances
/// over the time they took, as one ratio of sums.
///
/// Not an average of each advance's own rate: advances differ in size (a small fold after a
/// pause, then a large one), and a mean of ratios weighs a large fold that followed a short
/// interval as much as the rest, which reads high. A high rate lets admission take more than
/// the projection folds within the bound; the ratio of sums is the rate the projection
/// actually kept over those advances.
public struct FoldRate: Sendable, Equatable {
    /// Advances kept: enough to span a few pause-and-fold cycles, few enough to follow a
    /// change of the machine's speed within a second of folding.
    public static let window = 8

    private var events: [Int64] = []
    private var seconds: [Double] = []
    private var next = 0

    public init() {}

    /// An advance of `events` that took `seconds` since the one before it.
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

    /// Events per second over the advances kept; nil before the first.
    public var perSecond: Double? {
        guard !events.isEmpty else { return nil }
        return Double(events.reduce(0, +)) / seconds.reduce(0, +)
    }
}
