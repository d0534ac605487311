import LedgerDomain
import ProjectionEngine
import Projections

/// One project as `ledger admin project show` prints it: the pool funding it now and every
/// funding change, its keys and its balance (B1–B4, as `GET /v1/projects/{id}/balance`
/// answers it), all from one snapshot, so that the pool and the balance printed agree.
public struct ProjectOverviewQuery: LedgerQuery {
    public var id: String

    public init(_ id: String) { self.id = id }

    /// What the command prints about the project.
    public struct Overview: Sendable {
        public var project: BillingDirectory.Project
        public var keys: [BillingDirectory.Key]
        public var balance: BalanceView?
    }

    public var projections: [any Projection] { [BillingProjection()] }
    public var subject: QuerySubject { .account(.project(id)) }

    public func read(_ reads: QueryReads) throws -> Overview? {
        try reads.billing.snapshot(now: reads.now) { snapshot in
            guard let project = try snapshot.projects(id: id).first else { return nil }
            return Overview(project: project, keys: try snapshot.keys(of: KeyPrincipal(kind: .project, id: id)),
                            balance: try BalanceView.read(.project(id), reader: snapshot))
        }
    }
}
