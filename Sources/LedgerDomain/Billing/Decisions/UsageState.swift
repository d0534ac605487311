/// What the usage decider needs about the projects a batch names.
public struct UsageState: Sendable, Hashable {
    /// The funding of each project that exists (projects are never deleted).
    public var funding: [String: FundingHistory]
    /// Pool-months that are closing or closed: usage for them is refused.
    public var closedMonths: Set<PoolMonth>

    public init(funding: [String: FundingHistory], closedMonths: Set<PoolMonth>) {
        self.funding = funding
        self.closedMonths = closedMonths
    }
}
