import EventStore
import LedgerDomain
import Postgres
import ProjectionEngine
import Projections

/// Each projection against the log's head (the console's projections page): its position
/// and lag, the version its tables were built with against the code's, the event it stopped
/// on, and whether the projector's connection may swap a rebuild in for it.
public struct ProjectionsOverviewQuery: LedgerQuery {
    /// The projector's connections (the projections' owner), nil when the caller has none:
    /// what a rebuild may swap is a question of their privileges, not the reader's.
    public var projectorPool: PostgresPool?

    public init(projectorPool: PostgresPool? = nil) { self.projectorPool = projectorPool }

    /// Where the projections stand.
    public struct Overview: Sendable {
        /// The log's head position.
        public var head: Int64
        /// Every projection, in the order the projector applies them.
        public var projections: [Item]
        /// The drift check of each projection that has one: its last check and the drift
        /// its last completed check found (docs/operations.md, "Drift"); nil before any.
        public var drift: DriftStatus?
    }

    /// One projection.
    public struct Item: Sendable {
        public var name: String
        /// The version of the code's fold.
        public var codeVersion: Int
        /// Where it stands; nil before the projector created it.
        public var progress: Progress?
        /// Whether the projector's connection may swap a rebuild in (false without one).
        public var swappable: Bool
    }

    /// How far a projection has got.
    public struct Progress: Sendable {
        public var position: Int64
        /// The version its tables were built with.
        public var version: Int
        /// The event it stopped on, and why.
        public var failedPosition: Int64?
        public var error: String?
    }

    /// None waited for: the checkpoints are what is shown.
    public var projections: [any Projection] { [] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> Overview? {
        let all = AllProjections.all
        let (head, checkpoints) = try reads.connections.read { conn in
            (try LogReader(conn).headPosition(), try ProjectionSchema.progress(of: all.map(\.schema), on: conn))
        }
        let swappable = try projectorPool?.read { try ProjectionSchema.swappable(all.map(\.schema), on: $0) } ?? []
        // The schedule is the projector's: no overdue judged here.
        let drift = try DriftStatus.read(connections: reads.connections, every: 0, now: reads.now)
        return Overview(head: head, projections: all.map { p in
            Item(name: p.name, codeVersion: p.version,
                 progress: checkpoints[p.schema].map { Progress(position: $0.position, version: $0.version,
                                                                    failedPosition: $0.failedPosition, error: $0.error) },
                 swappable: swappable.contains(p.schema))
        }, drift: drift.projections.isEmpty ? nil : drift)
    }
}
