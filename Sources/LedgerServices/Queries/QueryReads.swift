import EventStore
import LedgerDomain
import Postgres
import Projections

/// What a query reads, on the connections the runner chose (the primary's, or a replica's
/// that has passed the position asked), at one instant: every read of a query goes
/// through the read models here, never through a table.
public struct QueryReads: Sendable {
    /// The connections of the chosen database.
    public let connections: PostgresPool
    /// The instant the query is answered at: pending changes (funding, plans) resolve at it.
    public let now: Timestamp

    public init(connections: PostgresPool, now: Timestamp) {
        self.connections = connections
        self.now = now
    }

    /// The billing projection's reads.
    public var billing: BillingReadModel { BillingReadModel(connections: connections) }
    /// The webhooks projection's reads.
    public var webhooks: WebhooksReadModel { WebhooksReadModel(connections: connections) }
    /// The organizations projection's reads.
    public var organizations: OrganizationsReadModel { OrganizationsReadModel(connections: connections) }
    /// The log itself.
    public var log: LogReader { LogReader(connections: connections) }
}
