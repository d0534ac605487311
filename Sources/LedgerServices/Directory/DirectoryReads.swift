import Projections

/// The reads the directory joins in Swift, each through its owner's read model: names
/// from the billing, organizations and catalog projections, last activity from the log's
/// index, users from the catalog's purchases and the web checkout's facts.
struct DirectoryReads {
    let reads: QueryReads

    init(_ reads: QueryReads) { self.reads = reads }

    var index: LogIndexReadModel { LogIndexReadModel(connections: reads.connections) }

    /// The owner's table of a named kind.
    func table(_ kind: DirectoryKind) -> DirectoryTable {
        switch kind {
        case .payer: return reads.billing.payerDirectory
        case .project: return reads.billing.projectDirectory
        case .org: return reads.organizations.orgDirectory
        case .app, .user: return CatalogSnapshot.appDirectory(connections: reads.connections)
        }
    }

    /// The two tables users are read from.
    var userTables: [DirectoryUserTable] {
        [CatalogSnapshot.purchaseUsers(connections: reads.connections), WebCheckoutReadModel(connections: reads.connections).users]
    }

    /// The latest event of each record's stream, by id.
    func activity(_ kind: DirectoryKind, ids: [String]) throws -> [String: LogIndexReadModel.Activity] {
        let streams = ids.compactMap { id in kind.stream(of: id).map { (id, $0) } }
        let found = try index.activity(of: streams.map(\.1))
        return streams.reduce(into: [:]) { out, pair in out[pair.0] = found[pair.1] }
    }

    /// Users of `apps` whose id starts with one of `prefixes`, from both tables, each with
    /// the latest position either holds, by (app, user), at most `limit`.
    func users(apps: [String], prefixes: [String], limit: Int) throws -> [DirectoryUser] {
        let found = try userTables.flatMap { try $0.users(apps: apps, prefixes: prefixes, limit: limit) }
        // A window may have cut a user's rows: their latest position is read for them alone.
        let keys = Self.distinct(found)
        return Array(try latest(keys).sorted { Self.precedes([$0.appID, $0.userID], [$1.appID, $1.userID]) }.prefix(limit))
    }

    /// The latest position of each of these users, across both tables.
    func latest(_ users: [(appID: String, userID: String)]) throws -> [DirectoryUser] {
        var latest: [UserKey: Int64] = [:]
        for table in userTables {
            for user in try table.latest(users) {
                let key = UserKey(app: user.appID, user: user.userID)
                latest[key] = max(latest[key] ?? 0, user.lastPosition)
            }
        }
        return users.compactMap { u in
            latest[UserKey(app: u.appID, user: u.userID)].map { DirectoryUser(appID: u.appID, userID: u.userID, lastPosition: $0) }
        }
    }

    /// Each (app, user) once, in first-seen order.
    static func distinct(_ users: [DirectoryUser]) -> [(appID: String, userID: String)] {
        var seen = Set<UserKey>()
        return users.filter { seen.insert(UserKey(app: $0.appID, user: $0.userID)).inserted }.map { ($0.appID, $0.userID) }
    }

    /// Keys compared field by field, each by its UTF-8 bytes (what a `C` collation
    /// does): the order of what is sorted in Swift, never mixed with an order from SQL.
    static func precedes(_ a: [String], _ b: [String]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x.utf8.lexicographicallyPrecedes(y.utf8) }
        return a.count < b.count
    }

    struct UserKey: Hashable {
        var app: String
        var user: String
    }
}
