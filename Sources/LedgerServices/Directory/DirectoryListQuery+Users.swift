import Projections

/// The lists of users: no name, so by (app, user id) or by their latest position, merged
/// from the catalog's purchases and the web checkout's facts.
extension DirectoryListQuery {
    /// Users matching a filter (an id prefix; at most `filterBound`), ordered and paged here.
    func filteredUsers(_ filter: TextMatch, _ directory: DirectoryReads) throws -> DirectoryPage {
        let apps = try CatalogSnapshot.appIDs(connections: directory.reads.connections)
        let users = try directory.users(apps: apps, prefixes: filter.caseVariants, limit: Self.filterBound + 1)
        let items = users.prefix(Self.filterBound).map(Self.item)
        let key: (DirectoryItem) -> [String] = sort == .name
            ? { [$0.app ?? "", $0.id] } : { [String($0.lastPosition ?? 0), $0.app ?? "", $0.id] }
        return inMemory(Array(items), key: key, cut: users.count > Self.filterBound ? Self.filterBound : nil)
    }

    /// Users by (app, user id): a page from each table after the cursor, merged in the
    /// database's order; their latest positions read for the page alone.
    func usersByID(_ directory: DirectoryReads) throws -> DirectoryPage {
        let after = cursor.map { (appID: $0.key[0], userID: $0.key[1]) }
        let found = try directory.userTables.flatMap { try $0.page(descending: descending, after: after, limit: limit + 1) }
        let distinct = DirectoryReads.distinct(found).map { DirectoryUser(appID: $0.appID, userID: $0.userID, lastPosition: 0) }
        let merged = try DirectoryOrder.byID(distinct, descending: descending, connections: directory.reads.connections)
        let page = try directory.latest(merged.prefix(limit).map { ($0.appID, $0.userID) })
        return DirectoryPage(items: page.map(Self.item), next: merged.count > limit ? page.last.map { cursor([$0.appID, $0.userID]) } : nil)
    }

    /// Users by their latest position: each table's users by their latest position there,
    /// after the cursor. A user's latest is the later of the two tables', so a user met at
    /// an earlier position of one table waits for the page that reaches its latest. Every
    /// user whose latest is not past `frontier` (the furthest a full table's page reached)
    /// has been met; the page holds those, and goes on from the frontier when it had fewer.
    /// (One event is one user's purchase or fact: no two users share a latest position.)
    func usersByActivity(_ directory: DirectoryReads) throws -> DirectoryPage {
        let after = cursor.map { (position: $0.position, appID: $0.key[1], userID: $0.key[2]) }
        let sides = try directory.userTables.map { try $0.pageByActivity(descending: descending, after: after?.position, limit: limit + 1) }
        let reached = sides.filter { $0.count > limit }.compactMap { $0.last?.lastPosition }
        let frontier = descending ? reached.max() : reached.min()
        func before(_ a: Int64, _ b: Int64) -> Bool { descending ? a > b : a < b }
        let met = try directory.latest(DirectoryReads.distinct(sides.flatMap { $0 })).filter { user in
            (after.map { before($0.position, user.lastPosition) } ?? true) && (frontier.map { !before($0, user.lastPosition) } ?? true)
        }.sorted { before($0.lastPosition, $1.lastPosition) }
        let page = Array(met.prefix(limit))
        if met.count > limit, let last = page.last {
            return DirectoryPage(items: page.map(Self.item), next: cursor([String(last.lastPosition), last.appID, last.userID]))
        }
        return DirectoryPage(items: page.map(Self.item), next: frontier.map { cursor([String($0), "", ""]) })
    }

    static func item(_ user: DirectoryUser) -> DirectoryItem {
        DirectoryItem(kind: .user, id: user.userID, app: user.appID, lastPosition: user.lastPosition)
    }
}
