/// A page of a list, and the cursor of the next one when more follow.
public struct DirectoryPage: Sendable, Equatable {
    public var items: [DirectoryItem]
    public var next: DirectoryCursor?
    /// Set when a filter matched more records than a filtered list orders
    /// (`DirectoryListQuery.filterBound`): the list shows that many of them.
    public var filterCut: Int?

    public init(items: [DirectoryItem], next: DirectoryCursor?, filterCut: Int? = nil) {
        self.items = items
        self.next = next
        self.filterCut = filterCut
    }
}
