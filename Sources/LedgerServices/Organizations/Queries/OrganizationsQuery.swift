import ProjectionEngine
import Projections

/// Every organization with its admins and education decisions (`ledger admin org list`):
/// a listing of the whole ledger, for operators only.
public struct OrganizationsQuery: LedgerQuery {
    public init() {}

    public var projections: [any Projection] { [OrganizationsProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [OrganizationsReadModel.Record]? {
        try reads.organizations.organizations()
    }
}
