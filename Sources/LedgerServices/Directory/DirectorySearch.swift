/// What a search found: the best hits in order, and how many of each kind matched where
/// more did than are shown.
public struct DirectorySearch: Sendable, Equatable {
    /// How many of a kind matched: exactly, or at least (the kinds read in bounded windows).
    public struct Count: Sendable, Equatable {
        public var count: Int
        public var exact: Bool

        public init(count: Int, exact: Bool) {
            self.count = count
            self.exact = exact
        }
    }

    public var hits: [DirectoryHit]
    /// Per kind whose matches were not all shown.
    public var more: [SearchKind: Count]

    public init(hits: [DirectoryHit], more: [SearchKind: Count]) {
        self.hits = hits
        self.more = more
    }
}
