/// A named record of a projection (a payer, a project, an organization, an app) as the
/// directory reads it.
public struct DirectoryRow: Sendable, Equatable {
    public var id: String
    public var name: String
    /// `lower(name)` as PostgreSQL folds it: what a page by name is ordered and keyed by.
    public var nameKey: String
    /// How well the searched text matches; nil when nothing was searched.
    public var rank: MatchRank?

    public init(id: String, name: String, nameKey: String, rank: MatchRank? = nil) {
        self.id = id
        self.name = name
        self.nameKey = nameKey
        self.rank = rank
    }
}
