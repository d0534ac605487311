import EventStore
import LedgerDomain
import Postgres
import Projections

/// What `ledger log` tells the story of, and the streams that story is in: a subject's
/// own stream and those of what belongs to it (a project's usage, holds, keys and its own
/// pool's month closes; a payer's keys and month closes; an organization's App Store
/// subscriptions; an app's purchases).
enum TimelineSubject: Equatable {
    case stream(String)
    case payer(String)
    case project(String)
    case org(String)
    case app(String)

    static let options = ["stream", "payer", "project", "org", "app"]

    init(_ args: Arguments) throws {
        let given = Self.options.filter { args.value($0) != nil }
        guard given.count == 1, let name = given.first, let value = args.value(name), !value.isEmpty else {
            throw UsageError("give exactly one of --stream, --payer, --project, --org, --app")
        }
        switch name {
        case "stream": self = .stream(value)
        case "payer": self = .payer(value)
        case "project": self = .project(value)
        case "org": self = .org(value)
        default: self = .app(value)
        }
    }

    var description: String {
        switch self {
        case .stream(let s): return "stream \(s)"
        case .payer(let id): return "payer \(id)"
        case .project(let id): return "project \(id)"
        case .org(let id): return "organization \(id)"
        case .app(let id): return "app \(id)"
        }
    }

    /// The streams to read. Related streams are found through the projections, so one
    /// created a moment ago appears once the projector has applied it.
    func streams(pool: PostgresPool) throws -> [String] {
        let billing = BillingReadModel(pool: pool)
        func keyStreams(_ principal: KeyPrincipal) throws -> [String] {
            try billing.keys(of: principal).map { "key-" + $0.keyID }
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
                + (try OrganizationsReadModel(pool: pool).subscriptionIDs(org: id).map { AppStoreTransactionFacts.stream(originalTransactionID: $0) })
        case .app(let id):
            return [CatalogDecider.stream(id), CatalogDecider.purchasesStream(id)]
        }
    }
}
