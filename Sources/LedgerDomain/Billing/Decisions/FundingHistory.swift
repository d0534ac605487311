/// When each of a project's fundings took effect (funding changes are never
/// retroactive: docs/billing.md, "A month split by a funding change").
public struct FundingHistory: Sendable, Hashable {
    public struct Change: Sendable, Hashable {
        public var effective: Timestamp
        public var position: Int64
        public var pool: Pool
        public init(effective: Timestamp, position: Int64, pool: Pool) {
            self.effective = effective
            self.position = position
            self.pool = pool
        }
    }

    public var changes: [Change]

    public init(_ changes: [Change]) {
        self.changes = changes.sorted { ($0.effective, $0.position) < ($1.effective, $1.position) }
    }

    /// The pool funding the project at `instant`: the latest change in effect then, or the
    /// first one for an instant before the project existed. Nil without any funding.
    public func pool(at instant: Timestamp) -> Pool? {
        (changes.last { $0.effective <= instant } ?? changes.first)?.pool
    }
}
