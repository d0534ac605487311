import LedgerDomain
import ProjectionEngine
import Projections

/// Refund requests not answered yet, each with what the ledger knew of its organization
/// when Apple asked (docs/appstore.md, "Refund requests"): what the worker answers from.
/// Read on the primary: an answer is never built from a replica a moment behind.
public struct AppStoreConsumptionQuery: LedgerQuery {
    /// A request and its organization as it stood then (nil: the request names none, or
    /// the projection does not hold it).
    public struct Pending: Sendable, Equatable {
        public var request: AppStoreConsumptionRequested
        public var position: Int64
        public var customer: ConsumptionCustomer?
    }

    /// At most this many a look, the most urgent first.
    public var limit: Int

    public init(limit: Int = 100) { self.limit = limit }

    public var projections: [any Projection] { [OrganizationsProjection()] }
    public var subject: QuerySubject { .ledger }
    public var replicaFloor: Int64? { nil }

    public func read(_ reads: QueryReads) throws -> [Pending]? {
        let model = reads.organizations
        return try model.unansweredConsumptionRequests(limit: limit).map { row in
            let customer = try row.request.orgID.flatMap {
                try model.consumptionCustomer(org: $0, original: row.request.originalTransactionID, before: row.position)
            }
            return Pending(request: row.request, position: row.position, customer: customer)
        }
    }
}
