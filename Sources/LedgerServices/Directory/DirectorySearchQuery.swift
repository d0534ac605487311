import Foundation
import LedgerDomain
import ProjectionEngine
import Projections

/// The console's one search box and `ledger find`: a text looked for by id, id prefix and
/// name among payers, projects, organizations, apps and users, journal entries and App
/// Store transactions, and in the log by position, event id and stream name
/// (docs/console.md, "Search and lists"). `kind:rest` looks for `rest` among one kind.
///
/// Results are ranked by `MatchRank`, then the latest activity first, then id, and cut at
/// `limit`; `DirectorySearch.more` says which kinds matched more than are shown.
public struct DirectorySearchQuery: LedgerQuery {
    /// Hits shown at most, and the most a search may ask.
    public static let defaultLimit = 50
    public static let maximumLimit = 200

    /// Records of a named kind read to be ordered by activity within their rank.
    public static let candidates = DirectoryListQuery.filterBound

    public var text: String
    /// Only this kind (else every kind, or the one `text` names as `kind:rest`).
    public var kind: SearchKind?
    public var limit: Int

    public init(_ text: String, kind: SearchKind? = nil, limit: Int = DirectorySearchQuery.defaultLimit) {
        self.text = text
        self.kind = kind
        self.limit = min(max(limit, 1), Self.maximumLimit)
    }

    public var projections: [any Projection] {
        [BillingProjection(), OrganizationsProjection(), CatalogProjection(), WebCheckoutProjection(), LogIndexProjection()]
    }
    public var subject: QuerySubject { .ledger }

    /// The kind searched and the text searched for, once a `kind:` prefix is taken off.
    public var scope: (kind: SearchKind?, text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if kind == nil, let split = SearchKind.split(trimmed) {
            return (split.kind, split.rest.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return (kind, trimmed)
    }

    public func read(_ reads: QueryReads) throws -> DirectorySearch? {
        let (only, text) = scope
        guard let match = TextMatch(text) else { return DirectorySearch(hits: [], more: [:]) }
        func wanted(_ kind: SearchKind) -> Bool { only == nil || only == kind }
        var found: [SearchKind: (hits: [DirectoryHit], count: DirectorySearch.Count)] = [:]
        func keep(_ kind: SearchKind, _ hits: [DirectoryHit], total: Int? = nil) {
            // Kinds read in windows ask one more than `limit`: more than that many is all they know.
            let count = total.map { DirectorySearch.Count(count: $0, exact: true) }
                ?? DirectorySearch.Count(count: hits.count, exact: hits.count <= limit)
            found[kind] = (Array(hits.sorted(by: DirectoryHit.ranked).prefix(limit)), count)
        }
        if wanted(.event) || wanted(.stream) {
            var events: [DirectoryHit] = [], streams: [DirectoryHit] = []
            for m in try LogSearchQuery(text).read(reads) ?? [] {
                switch m {
                case .position(let p): events.append(DirectoryHit(.position(p), rank: .exactID, lastPosition: p))
                case .event(let id, let p): events.append(DirectoryHit(.event(id: id, position: p), rank: .exactID, lastPosition: p))
                case .stream(let s, let p): streams.append(DirectoryHit(.stream(s), rank: .exactID, lastPosition: p))
                }
            }
            if wanted(.event) { keep(.event, events) }
            if wanted(.stream) { keep(.stream, streams) }
        }
        let directory = DirectoryReads(reads)
        for kind in [DirectoryKind.payer, .project, .org, .app] where wanted(SearchKind(kind)) {
            // Ties of a rank go to the latest activity, which another projection holds: the
            // best `candidates` by rank then id are read, and ordered here.
            let (rows, total) = try directory.table(kind).matching(match, limit: Self.candidates)
            let activity = try directory.activity(kind, ids: rows.map(\.id))
            keep(SearchKind(kind), rows.map { row in
                let last = activity[row.id]
                return DirectoryHit(Self.target(kind, row.id), name: row.name, rank: row.rank ?? .substring,
                                    lastPosition: last?.lastPosition, lastOccurredAt: last.flatMap { Timestamp(microseconds: $0.lastOccurredAtMicroseconds) })
            }, total: total)
        }
        let apps = (wanted(.user) || wanted(.transaction)) ? try CatalogSnapshot.appIDs(connections: reads.connections) : []
        if wanted(.user) {
            keep(.user, try directory.users(apps: apps, prefixes: match.caseVariants, limit: limit + 1).map { user in
                DirectoryHit(.user(app: user.appID, user: user.userID), rank: Self.idRank(user.userID, text), lastPosition: user.lastPosition)
            })
        }
        if wanted(.entry) {
            keep(.entry, try reads.billing.entries(prefix: text.lowercased(), limit: limit + 1).map { e in
                DirectoryHit(.entry(id: e.entryID, account: e.account), rank: Self.idRank(e.entryID, text), lastPosition: e.position,
                             lastOccurredAt: Timestamp(microseconds: e.occurredAtMicroseconds))
            })
        }
        if wanted(.transaction) {
            let subscriptions = try reads.organizations.subscriptions(prefixes: match.caseVariants, limit: limit + 1).map { s in
                DirectoryHit(.subscription(originalTransactionID: s.originalTransactionID, org: s.orgID),
                             rank: Self.idRank(s.originalTransactionID, text), lastPosition: s.position)
            }
            let purchases = try CatalogSnapshot.storeKitPurchases(apps: apps, prefixes: match.caseVariants, limit: limit + 1,
                                                                  connections: reads.connections).map { p in
                DirectoryHit(.purchase(transactionID: p.transactionID, originalTransactionID: p.originalTransactionID, app: p.appID, user: p.userID),
                             rank: Self.idRank(p.transactionID, text), lastPosition: p.position)
            }
            keep(.transaction, subscriptions + purchases)
        }
        let hits = found.values.flatMap(\.hits).sorted(by: DirectoryHit.ranked)
        let shown = Array(hits.prefix(limit))
        var more: [SearchKind: DirectorySearch.Count] = [:]
        for (kind, result) in found {
            let shownOfKind = shown.filter { $0.kind == kind }.count
            if result.count.count > shownOfKind || !result.count.exact { more[kind] = result.count }
        }
        return DirectorySearch(hits: shown, more: more)
    }

    static func target(_ kind: DirectoryKind, _ id: String) -> DirectoryHit.Target {
        switch kind {
        case .payer: return .payer(id)
        case .project: return .project(id)
        case .org: return .org(id)
        case .app: return .app(id)
        case .user: preconditionFailure("a user's target names its app")
        }
    }

    /// An id found by prefix: exact when it is the text, whatever the case.
    static func idRank(_ id: String, _ text: String) -> MatchRank {
        id.lowercased() == text.lowercased() ? .exactID : .idPrefix
    }
}
