import LedgerDomain
import ProjectionEngine
import Projections

/// The projects and the pool funding each now (`ledger admin project list`): all of them,
/// those a payer funds, or the self-paying ones (each its own pool).
public struct ProjectListQuery: LedgerQuery {
    /// Which projects: every one, those `payer` funds now, or those that fund themselves.
    public enum Selection: Sendable, Equatable {
        case all
        case fundedBy(payer: String)
        case selfPaying
    }

    public var selection: Selection

    public init(_ selection: Selection = .all) { self.selection = selection }

    public var projections: [any Projection] { [BillingProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [BillingDirectory.Project]? {
        try reads.billing.snapshot(now: reads.now) { snapshot in
            switch selection {
            case .all: return try snapshot.projects()
            case .fundedBy(let payer): return try snapshot.projects(fundedBy: .payer(payer))
            case .selfPaying: return try snapshot.projects().filter { $0.pool == Pool.project($0.id).description }
            }
        }
    }
}
