import ProjectionEngine
import Projections

/// An organization's refund requests and their answers, as operators see them on its
/// subscriptions (`ledger admin org show`).
public struct AppStoreConsumptionRequestsQuery: LedgerQuery {
    public var org: String

    public init(org: String) { self.org = org }

    public var projections: [any Projection] { [OrganizationsProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [OrganizationsReadModel.ConsumptionRequest]? {
        try reads.organizations.consumptionRequests(org: org)
    }
}
