import LedgerDomain

/// A hold reserves an amount for a project on the pool that funds it now (it reduces
/// what is available and posts nothing), on a new `hold-<id>` stream.
public struct HoldPlaceAct: LedgerAct {
    public var id: String
    public var projectID: String
    public var amount: Millicredits
    public var description: String

    public init(id: String, projectID: String, amount: Millicredits, description: String) {
        self.id = id
        self.projectID = projectID
        self.amount = amount
        self.description = description
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let state = try reads.accountsState(projects: [projectID])
        let pool = try reads.billing.currentPool(ofProject: projectID, now: reads.now())
        return try HoldDecider.place(id: id, projectID: projectID, amount: amount, description: description, currentPool: pool, state: state)
    }

    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        stream == HoldDecider.stream(id)
            ? Refusal(.alreadyExists, "hold \(id) already exists")
            : Refusal(.notFound, "project \(projectID) does not exist")
    }
}
