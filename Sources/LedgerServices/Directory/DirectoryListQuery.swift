import LedgerDomain
import ProjectionEngine
import Projections

/// A page of payers, projects, organizations, apps or users (the console's lists, `ledger
/// list`), by name or by last activity, either way, after a cursor, optionally filtered
/// by the search's matching (docs/console.md, "Search and lists").
///
/// By name, named records page through their owner's table, and their activity is read
/// for the page alone; by activity, through the log's index of streams of their category,
/// and their names are read for the page alone. Users have no name: by name means by
/// (app, user id); both orders merge the catalog's purchases and the web checkout's facts.
public struct DirectoryListQuery: LedgerQuery {
    public enum Sort: String, Sendable, CaseIterable {
        case name, activity
    }

    public static let defaultLimit = 50
    public static let maximumLimit = 500
    /// A filtered list orders at most this many matches (the best by rank then id).
    public static let filterBound = 1_000

    public var kind: DirectoryKind
    public var sort: Sort
    public var descending: Bool
    public var filter: TextMatch?
    public var cursor: DirectoryCursor?
    public var limit: Int

    /// `descending` defaults to false by name and true by activity (the latest first);
    /// `cursor` is the text a page gave, refused unless it is this list's.
    public init(_ kind: DirectoryKind, sort: Sort = .name, descending: Bool? = nil, filter: String? = nil, cursor: String? = nil,
                limit: Int = DirectoryListQuery.defaultLimit) throws(DirectoryInputError) {
        guard (1...Self.maximumLimit).contains(limit) else {
            throw DirectoryInputError("invalid_limit", "limit is 1 to \(Self.maximumLimit)")
        }
        self.kind = kind
        self.sort = sort
        self.descending = descending ?? (sort == .activity)
        self.filter = filter.flatMap(TextMatch.init)
        self.limit = limit
        self.cursor = try cursor.flatMap { text throws(DirectoryInputError) in
            text.isEmpty ? nil : try DirectoryCursor(text, for: kind, sort: sort, descending: self.descending)
        }
    }

    public var projections: [any Projection] {
        [BillingProjection(), OrganizationsProjection(), CatalogProjection(), WebCheckoutProjection(), LogIndexProjection()]
    }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> DirectoryPage? {
        let directory = DirectoryReads(reads)
        switch (kind, sort, filter) {
        case (.user, _, let filter?): return try filteredUsers(filter, directory)
        case (.user, .name, nil): return try usersByID(directory)
        case (.user, .activity, nil): return try usersByActivity(directory)
        case (_, .name, _): return try byName(directory)
        case (_, .activity, nil): return try byActivity(directory)
        case (_, .activity, let filter?): return try filteredByActivity(filter, directory)
        }
    }

    func cursor(_ key: [String]) -> DirectoryCursor { DirectoryCursor(kind: kind, sort: sort, descending: descending, key: key) }

    /// Named records through their owner's table, by `lower(name)` then id.
    func byName(_ directory: DirectoryReads) throws -> DirectoryPage {
        let rows = try directory.table(kind).page(descending: descending, after: cursor.map { ($0.key[0], $0.key[1]) }, filter: filter,
                                                  limit: limit + 1)
        let page = Array(rows.prefix(limit))
        let activity = try directory.activity(kind, ids: page.map(\.id))
        return DirectoryPage(items: page.map { item($0, activity[$0.id]) },
                             next: rows.count > limit ? page.last.map { cursor([$0.nameKey, $0.id]) } : nil)
    }

    /// Named records through the log's index of their category, latest (or earliest)
    /// first. The category also holds streams that are not a record's own (`app-x-purchases`):
    /// those are skipped, a bounded number of rounds a page; a page cut by that bound is
    /// short, and its cursor goes on from the last stream read.
    func byActivity(_ directory: DirectoryReads) throws -> DirectoryPage {
        guard let category = kind.category else { return DirectoryPage(items: [], next: nil) }
        var items: [(DirectoryItem, Int64)] = []
        var after = cursor?.position
        let batch = (limit + 1) * 2
        for _ in 0..<8 {
            let streams = try directory.index.streams(category: category, descending: descending, after: after, limit: batch)
            let prefix = category + "-"
            let ids = streams.compactMap { $0.stream.hasPrefix(prefix) ? String($0.stream.dropFirst(prefix.count)) : nil }
            let rows = try directory.table(kind).rows(ids: ids)
            for s in streams {
                after = s.lastPosition
                let id = String(s.stream.dropFirst(prefix.count))
                guard s.stream.hasPrefix(prefix), let row = rows[id], kind.stream(of: id) == s.stream else { continue }
                items.append((item(row, s), s.lastPosition))
                if items.count > limit { break }
            }
            if items.count > limit {
                return DirectoryPage(items: items.prefix(limit).map(\.0), next: cursor([String(items[limit - 1].1), items[limit - 1].0.id]))
            }
            if streams.count < batch { return DirectoryPage(items: items.map(\.0), next: nil) }
        }
        return DirectoryPage(items: items.map(\.0), next: after.map { cursor([String($0), ""]) })
    }

    /// Named records matching a filter, by activity: the matches (at most `filterBound`)
    /// and their activity, ordered and paged here.
    func filteredByActivity(_ filter: TextMatch, _ directory: DirectoryReads) throws -> DirectoryPage {
        let (rows, total) = try directory.table(kind).matching(filter, limit: Self.filterBound)
        let activity = try directory.activity(kind, ids: rows.map(\.id))
        let items = rows.map { item($0, activity[$0.id]) }
        return inMemory(items, key: { [String($0.lastPosition ?? 0), $0.id] }, cut: total > rows.count ? Self.filterBound : nil)
    }

    /// A list ordered and paged in memory by `key` (positions compared as numbers, ids
    /// by their bytes), after the cursor.
    func inMemory(_ items: [DirectoryItem], key: (DirectoryItem) -> [String], cut: Int?) -> DirectoryPage {
        func precedes(_ a: [String], _ b: [String]) -> Bool {
            if sort == .activity, let x = Int64(a[0]), let y = Int64(b[0]), x != y { return descending ? x > y : x < y }
            let (x, y) = sort == .activity ? (Array(a.dropFirst()), Array(b.dropFirst())) : (a, b)
            return descending ? DirectoryReads.precedes(y, x) : DirectoryReads.precedes(x, y)
        }
        let ordered = items.map { ($0, key($0)) }.sorted { precedes($0.1, $1.1) }
        let rest = cursor.map { c in ordered.filter { precedes(c.key, $0.1) } } ?? ordered
        let page = Array(rest.prefix(limit))
        return DirectoryPage(items: page.map(\.0), next: rest.count > limit ? page.last.map { cursor($0.1) } : nil, filterCut: cut)
    }

    func item(_ row: DirectoryRow, _ activity: LogIndexReadModel.Activity?) -> DirectoryItem {
        DirectoryItem(kind: kind, id: row.id, name: row.name, lastPosition: activity?.lastPosition,
                      lastOccurredAt: activity.flatMap { Timestamp(microseconds: $0.lastOccurredAtMicroseconds) })
    }
}
