import LedgerDomain
import Projections

/// One thing a search found, with how well it matched and when it last moved.
public struct DirectoryHit: Sendable, Equatable {
    /// What was found.
    public enum Target: Sendable, Hashable {
        /// The log holds an event at this position.
        case position(Int64)
        /// The event of this id (lowercase), at `position`.
        case event(id: String, position: Int64)
        /// A stream of this exact name has events.
        case stream(String)
        case payer(String)
        case project(String)
        case org(String)
        case app(String)
        /// A user of an app: purchases in the catalog or facts of the web checkout.
        case user(app: String, user: String)
        /// A journal entry, as posted to `account` (`payer:ID`, `project:ID`).
        case entry(id: String, account: String)
        /// An organization's App Store subscription, by its original transaction id.
        case subscription(originalTransactionID: String, org: String)
        /// A StoreKit transaction in an app user's purchase history.
        case purchase(transactionID: String, originalTransactionID: String, app: String, user: String)
    }

    public var target: Target
    /// The record's name, for those that have one.
    public var name: String?
    public var rank: MatchRank
    /// The position (and time, when known) of the record's latest event.
    public var lastPosition: Int64?
    public var lastOccurredAt: Timestamp?

    public init(_ target: Target, name: String? = nil, rank: MatchRank, lastPosition: Int64? = nil, lastOccurredAt: Timestamp? = nil) {
        self.target = target
        self.name = name
        self.rank = rank
        self.lastPosition = lastPosition
        self.lastOccurredAt = lastOccurredAt
    }

    /// The kind the hit is of, as searches and lists name kinds.
    public var kind: SearchKind {
        switch target {
        case .position, .event: return .event
        case .stream: return .stream
        case .payer: return .payer
        case .project: return .project
        case .org: return .org
        case .app: return .app
        case .user: return .user
        case .entry: return .entry
        case .subscription, .purchase: return .transaction
        }
    }

    /// The id the hit is known by (a user's is `app/user`), the last tie-break of the order.
    public var id: String {
        switch target {
        case .position(let p): return String(p)
        case .event(let id, _): return id
        case .stream(let s), .payer(let s), .project(let s), .org(let s), .app(let s): return s
        case .user(let app, let user): return app + "/" + user
        case .entry(let id, let account): return id + " " + account
        case .subscription(let id, _): return id
        case .purchase(let id, _, let app, _): return id + " " + app
        }
    }

    /// What was found, for a person: "payer acme", "user u1 of app demo".
    public var summary: String {
        switch target {
        case .position(let p): return "event at position \(p)"
        case .event(let id, let p): return "event \(id) at position \(p)"
        case .stream(let s): return "stream \(s)"
        case .payer(let id): return "payer \(id)"
        case .project(let id): return "project \(id)"
        case .org(let id): return "organization \(id)"
        case .app(let id): return "app \(id)"
        case .user(let app, let user): return "user \(user) of app \(app)"
        case .entry(let id, let account): return "journal entry \(id) of \(account)"
        case .subscription(let id, let org): return "App Store subscription \(id) of organization \(org)"
        case .purchase(let id, _, let app, let user): return "App Store transaction \(id) of user \(user) with app \(app)"
        }
    }

    /// The order of results: rank, then the latest activity first (none last), then id.
    public static func ranked(_ a: DirectoryHit, before b: DirectoryHit) -> Bool {
        if a.rank != b.rank { return a.rank < b.rank }
        if a.lastPosition != b.lastPosition { return (a.lastPosition ?? 0) > (b.lastPosition ?? 0) }
        if a.kind != b.kind { return SearchKind.allCases.firstIndex(of: a.kind)! < SearchKind.allCases.firstIndex(of: b.kind)! }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}
