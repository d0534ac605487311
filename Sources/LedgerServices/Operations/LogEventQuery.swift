import EventStore
import LedgerDomain
import ProjectionEngine

/// One event of the log, whole, with the positions of the corrections that name it (J3):
/// the console's event page. Nil when the log holds no event there (or it is archived).
public struct LogEventQuery: LedgerQuery {
    public var position: Int64

    public init(at position: Int64) { self.position = position }

    /// The event and what corrects it.
    public struct Answer: Sendable {
        public var event: RecordedEvent
        /// The positions of the corrections naming the event, in order.
        public var corrections: [Int64]
    }

    /// None: the log only.
    public var projections: [any Projection] { [] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> Answer? {
        try reads.connections.read { conn in
            guard let event = try LogReader(conn).event(at: position) else { return nil }
            return Answer(event: event, corrections: try LogReader(conn).corrections(of: position))
        }
    }
}
