import EventStore
import LedgerDomain
import Postgres
import Projections

/// What a query reads, on the connections the runner chose (the primary's, or a replica's
/// that has passed the position asked), at one instant: every read of a query goes
/// through the read models here, never through a table.
public struct QueryReads: Sendable {
    /// The connections of the chosen database.
    public let pool: PostgresPool
    /// The instant the query is answered at: pending changes (funding, plans) resolve at it.
    public let now: Timestamp

    public init(pool: PostgresPool, now: Timestamp) {
        self.pool = pool
        self.now = now
    }

    /// The billing projection's reads.
    public var billing: BillingReadModel { BillingReadModel(pool: pool) }
    /// The webhooks projection's reads.
    public var webhooks: WebhooksReadModel { WebhooksReadModel(pool: pool) }
    /// The organizations projection's reads.
    public var organizations: OrganizationsReadModel { OrganizationsReadModel(pool: pool) }
    /// The log itself.
    public var log: LogReader { LogReader(pool: pool) }
}
