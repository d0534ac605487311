import LedgerDomain
import ProjectionEngine
import Projections

/// One organization, the plans it holds and its App Store subscriptions: the answer to
/// "why is this customer on this plan?" (`ledger admin org show`, the console's
/// organization page). An organization is no billing account, so only operators read it
/// this way; its admins read it through the API's own rules.
public struct OrganizationQuery: LedgerQuery {
    public var id: String

    public init(_ id: String) { self.id = id }

    public var projections: [any Projection] { [OrganizationsProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> OrganizationView? {
        let model = reads.organizations
        guard let organization = try model.organizations(id: id).first, let snapshot = try model.snapshot(id) else { return nil }
        let created = try reads.log.readStream(OrganizationDecider.stream(id), from: 1, limit: 1).first?.occurredAt
        return OrganizationView(organization: organization, snapshot: snapshot, at: reads.now, created: created)
    }
}
