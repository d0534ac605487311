import EventStore
import LedgerDomain
import Observability
import Postgres
import ProjectionEngine

/// Runs queries for every front end, in one order: authorize the reader for the query's
/// subject before anything waits (a stranger is answered at once and learns nothing about
/// the log), wait for `min_position` on exactly the projections the query reads, choose
/// a replica that has passed it (else the primary), read. Waiting is the front end's: an
/// HTTP handler parks the request on `.waiting` (holding no thread) and runs the query
/// again when woken; `ledger admin` reads without a position.
public struct QueryRunner: Sendable {
    /// The primary's connections: every read that no replica can serve.
    public let connections: PostgresPool
    /// The read replicas, nil without any.
    public let replicas: ReplicaSet?
    /// How far each projection has got (the API's one LISTEN); nil in a process without
    /// one, which then reads the checkpoints from the primary.
    public let progress: ProjectionProgress?
    /// The clock every query is answered by.
    public let clock: LedgerClock
    private let logger: Logger?
    /// Called with where each read was served (`primary`, `replica-1`, …), for metrics.
    private let served: @Sendable (String) -> Void

    public init(connections: PostgresPool, replicas: ReplicaSet? = nil, progress: ProjectionProgress? = nil, clock: @escaping LedgerClock,
                logger: Logger? = nil, served: @escaping @Sendable (String) -> Void = { _ in }) {
        self.connections = connections
        self.replicas = replicas
        self.progress = progress
        self.clock = clock
        self.logger = logger
        self.served = served
    }

    /// `query` for `reader`, at or past `minPosition` when one is given.
    public func run<Q: LedgerQuery>(_ query: Q, as reader: Reader, atLeast minPosition: Int64? = nil) throws -> QueryOutcome<Q.Answer> {
        guard reader.mayRead(query.subject) else {
            return query.subject.refusalIsVisible ? .forbidden(query.subject) : .notFound(query.subject)
        }
        if let target = minPosition {
            precondition(target >= 0, "a min_position is checked non-negative where it is parsed")
            let reached = try positions(of: query.projections)
            if let behind = query.projections.first(where: { (reached[$0.name] ?? -1) < target }) {
                let head = try headPosition(atLeast: target)
                guard target <= head else { return .beyondHead(position: target, head: head) }
                return .waiting(projection: behind.name, position: target)
            }
        }
        let now = clock()
        let read = { (connections: PostgresPool) in try query.read(QueryReads(connections: connections, now: now)) }
        let answer: Q.Answer?
        if let floor = query.replicaFloor {
            answer = try onReplicaOrPrimary(query.projections.map(\.name), atLeast: max(minPosition ?? 0, floor), read)
        } else {
            served("primary")
            answer = try read(connections)
        }
        guard let answer else { return .notFound(query.subject) }
        return .answered(answer)
    }

    /// `query`'s answer, read at once (no position asked): for `ledger admin`, the
    /// console and the workers; nil when there is no such subject for `reader`.
    public func answer<Q: LedgerQuery>(_ query: Q, as reader: Reader) throws -> Q.Answer? {
        switch try run(query, as: reader) {
        case .answered(let answer): return answer
        case .notFound, .forbidden: return nil
        case .waiting, .beyondHead: preconditionFailure("a query run without a position neither waits nor passes the head")
        }
    }

    /// Each projection's position: from the LISTEN when there is one, else the checkpoints.
    private func positions(of projections: [any Projection]) throws -> [String: Int64] {
        if let progress {
            return Dictionary(uniqueKeysWithValues: projections.compactMap { p in progress.position(p.name).map { (p.name, $0) } })
        }
        let checkpoints = try connections.read { try ProjectionSchema.progress(of: projections.map(\.schema), on: $0) }
        return Dictionary(uniqueKeysWithValues: projections.compactMap { p in checkpoints[p.schema].map { (p.name, $0.position) } })
    }

    /// The log's head, from the LISTEN when it has seen `target`, else from the log.
    private func headPosition(atLeast target: Int64) throws -> Int64 {
        if let head = progress?.head, head >= target { return head }
        return try LogReader(connections: connections).headPosition()
    }

    /// Runs `body` on a replica in rotation whose copies of `projections` have passed
    /// `position`, else on the primary. A replica that fails the read is taken out of
    /// rotation and the read is done again on the primary: a read is safe to repeat.
    /// Public for the reads not yet written as queries (the catalog's, an offer's).
    public func onReplicaOrPrimary<T>(_ projections: [String], atLeast position: Int64, _ body: (PostgresPool) throws -> T) throws -> T {
        if let replicas, let replica = replicas.pick(projections: projections, atLeast: position) {
            do {
                let value = try body(replica.connections)
                served(replica.name)
                return value
            } catch let error as PostgresError where Self.isReplicaFailure(error) {
                replicas.markDown(replica.name, because: error)
                logger?.warning("read replica failed a read; read again on the primary",
                                ["replica": .string(replica.name), "error": .string("\(error)")])
            }
        }
        served("primary")
        return try body(connections)
    }

    /// A failure of the replica, not of the read: unreachable, gone mid-read, saturated, or
    /// a query cancelled by a conflict with recovery (WAL replay removed rows it needed).
    public static func isReplicaFailure(_ error: PostgresError) -> Bool {
        switch error.code {
        case .connectionFailed, .connectionLost, .poolTimeout: return true
        default:
            return [PostgresError.SQLState.serializationFailure, PostgresError.SQLState.adminShutdown,
                    PostgresError.SQLState.queryCanceled, "40P01", "57P03"].contains(error.sqlState ?? "")
        }
    }
}
