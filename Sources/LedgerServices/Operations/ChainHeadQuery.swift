import EventStore
import LedgerDomain
import ProjectionEngine

/// The hash chain's head and where the live log starts (the console's chain page): what an
/// auditor writes down to check later that the log still passes through it.
public struct ChainHeadQuery: LedgerQuery {
    public init() {}

    public struct Answer: Sendable {
        /// The last event; nil for an empty log.
        public var head: RecordedEvent?
        /// The first position the database holds (1, or the one after the archived ones).
        public var firstLive: Int64
    }

    /// None: the log only.
    public var projections: [any Projection] { [] }
    public var subject: QuerySubject { .ledger }

    /// The plain-SQL check an auditor runs without our code: it recomputes every hash
    /// with PostgreSQL's own `sha256` and returns the first broken position, or nothing
    /// (docs/audit.md explains each part).
    public static var auditorSQL: String { ChainVerifier.auditorSQL }

    public func read(_ reads: QueryReads) throws -> Answer? {
        try reads.connections.read { conn in
            let position = try LogReader(conn).headPosition()
            return Answer(head: try LogReader(conn).event(at: position), firstLive: try LogReader(conn).firstLivePosition())
        }
    }
}
