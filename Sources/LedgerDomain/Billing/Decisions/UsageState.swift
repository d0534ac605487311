/// What the usage decider needs about the projects a batch names.
public struct UsageState: Sendable, Hashable {
    /// A usage event the log holds already, as it was measured, and where.
    public struct Recorded: Sendable, Hashable {
        public var measurement: UsageDecider.Measurement
        public var position: Int64
        public init(_ measurement: UsageDecider.Measurement, position: Int64) {
            self.measurement = measurement
            self.position = position
        }
    }

    /// The funding of each project that exists (projects are never deleted).
    public var funding: [String: FundingHistory]
    /// Pool-months that are closing or closed: usage for them is refused.
    public var closedMonths: Set<PoolMonth>
    /// The usage ids of the batch that fall in a closed month and are in the log already,
    /// by id (`UsageDecider.idsToLookUp`): a retry of one is a duplicate, not a refusal.
    public var recorded: [String: Recorded]

    public init(funding: [String: FundingHistory], closedMonths: Set<PoolMonth>, recorded: [String: Recorded] = [:]) {
        self.funding = funding
        self.closedMonths = closedMonths
        self.recorded = recorded
    }
}
