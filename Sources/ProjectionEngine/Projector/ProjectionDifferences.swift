import LedgerDomain

/// What a rebuild changes compared with the live projection, at the same position.
public struct ProjectionDifferences: Sendable, Codable, Equatable {
    /// One table's rows added, removed and changed (the record `projection.rebuilt` keeps).
    public typealias Table = ProjectionRebuilt.Table

    public var projection: String
    /// The position both were compared at (the rebuild's).
    public var position: Int64
    /// The live projection's position; nil when it does not exist yet.
    public var livePosition: Int64?
    public var tables: [Table]
    public var accounts: [AccountDifference]

    public var isUnchanged: Bool { tables.allSatisfy(\.isUnchanged) && accounts.isEmpty }
}

/// One account's figure that a rebuild changes: `figure` names it (`posted`, `held`,
/// `usage 2026-01 billed_units`…), in the projection's own unit.
public struct AccountDifference: Sendable, Codable, Equatable {
    public var account: String
    public var figure: String
    public var live: String
    public var rebuilt: String

    public init(account: String, figure: String, live: String, rebuilt: String) {
        self.account = account
        self.figure = figure
        self.live = live
        self.rebuilt = rebuilt
    }
}
