import EventStore
import LedgerDomain
import Postgres
import Projections

/// What `ledger log` and the console's timeline tell the story of, and the streams that story is in: a subject's
/// own stream and those of what belongs to it (a project's usage, holds, keys and its own
/// pool's month closes; a payer's keys and month closes; an organization's App Store
/// subscriptions; an app's purchases).
public enum TimelineSubject: Equatable, Sendable {
    case stream(String)
    case payer(String)
    case project(String)
    case org(String)
    case app(String)

    public static let options = ["stream", "payer", "project", "org", "app"]

    /// The subject of kind `kind` (one of `options`) and `id`; nil for another kind or an
    /// empty id.
    public init?(kind: String, id: String) {
        guard !id.isEmpty else { return nil }
        switch kind {
        case "stream": self = .stream(id)
        case "payer": self = .payer(id)
        case "project": self = .project(id)
        case "org": self = .org(id)
        case "app": self = .app(id)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .stream(let s): return "stream \(s)"
        case .payer(let id): return "payer \(id)"
        case .project(let id): return "project \(id)"
        case .org(let id): return "organization \(id)"
        case .app(let id): return "app \(id)"
        }
    }

    /// `kind:id`, as the console's links write it (the reverse of `init(kind:id:)`).
    public var reference: String {
        switch self {
        case .stream(let s): return "stream:" + s
        case .payer(let id): return "payer:" + id
        case .project(let id): return "project:" + id
        case .org(let id): return "org:" + id
        case .app(let id): return "app:" + id
        }
    }

    /// The streams to read. Related streams are found through the projections, so one
    /// created a moment ago appears once the projector has applied it.
    public func streams(connections: PostgresPool) throws -> [String] {
        let billing = BillingReadModel(connections: connections)
        func keyStreams(_ principal: KeyPrincipal) throws -> [String] {
            try billing.keys(of: principal).map { AccountsDecider.keyStream($0.keyID) }
        }
        func monthStreams(_ pool: Pool) throws -> [String] {
            try billing.months(of: pool).map { PoolMonth(pool, $0).stream }
        }
        switch self {
        case .stream(let s):
            return [s]
        case .payer(let id):
            return [Pool.payer(id).ownerStream] + (try keyStreams(KeyPrincipal(kind: .payer, id: id))) + (try monthStreams(.payer(id)))
        case .project(let id):
            return [Pool.project(id).ownerStream, UsageDecider.stream(id)]
                + (try billing.holdIDs(project: id).map(HoldDecider.stream))
                + (try keyStreams(KeyPrincipal(kind: .project, id: id))) + (try monthStreams(.project(id)))
        case .org(let id):
            return [OrganizationDecider.stream(id)]
                + (try OrganizationsReadModel(connections: connections).subscriptionIDs(org: id).map { AppStoreTransactionFacts.stream(originalTransactionID: $0) })
        case .app(let id):
            return [CatalogDecider.stream(id), CatalogDecider.purchasesStream(id)]
        }
    }

    /// Whether the subject exists: its first stream (the account's, the organization's,
    /// the app's, or the stream named) holds an event. An unknown subject is not found,
    /// on every surface, rather than an empty story.
    public func exists(connections: PostgresPool) throws -> Bool {
        guard let first = try streams(connections: connections).first else { return false }
        return try LogReader(connections: connections).streamHead(first) != nil
    }
}
