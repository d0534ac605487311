import Dispatch
import Foundation
import Postgres
import Synchronization

/// The event log: appends through the process's group-commit appender, reads through a
/// connection connections.
public final class EventStore: Sendable {
    /// The channel `pg_notify` announces new positions on (payload: the new head).
    public static let notificationChannel = "ledger_events"

    public let connections: PostgresPool
    private let appender: GroupCommitAppender

    /// - Parameters:
    ///   - conninfo: the database, as a `postgresql://` URL or libpq keywords.
    ///   - connections: connections for reads (the appender has its own).
    ///   - maximumBatchEvents: the most events one group commit writes.
    ///   - faults: failure injection, for tests only.
    ///   - resolveTimeout: how long, after a commit's answer was lost, the appender keeps
    ///     trying to learn whether it happened before it reports `append_outcome_unknown`.
    public init(conninfo: String, connections: PostgresPool? = nil, maximumBatchEvents: Int = 2_000, faults: AppendFaults = .none,
                resolveTimeout: Double = 30) {
        self.connections = connections ?? PostgresPool(conninfo: conninfo, maximumConnections: 8)
        self.appender = GroupCommitAppender(conninfo: conninfo, maximumBatchEvents: maximumBatchEvents, faults: faults,
                                            resolveTimeout: resolveTimeout)
    }

    /// Appends atomically and waits for the result.
    public func append(_ request: AppendRequest) throws(AppendError) -> AppendResult {
        let prepared = try PreparedAppend(request)
        let done = DispatchSemaphore(value: 0)
        let box = Mutex<Result<AppendResult, AppendError>?>(nil)
        appender.submit(prepared) { result in
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try box.withLock { $0! }.get()
    }

    /// Appends without waiting; `completion` runs on the appender's answering thread and
    /// must not block: the answers of later group commits wait behind it.
    public func submit(_ request: AppendRequest, completion: @escaping @Sendable (Result<AppendResult, AppendError>) -> Void) {
        let prepared: PreparedAppend
        do {
            prepared = try PreparedAppend(request)
        } catch {
            completion(.failure(error))
            return
        }
        submit(prepared, completion: completion)
    }

    /// Appends what was prepared ahead, without waiting; `completion` runs on the
    /// appender's answering thread and must not block.
    public func submit(_ prepared: PreparedAppend, completion: @escaping @Sendable (Result<AppendResult, AppendError>) -> Void) {
        appender.submit(prepared, completion: completion)
    }

    /// Calls `observer` with the log's head after each transaction of this process's
    /// appender that wrote events, on the appender's thread (it must not block), before
    /// any append of that transaction is answered: this process knows its own commits
    /// before their notification comes back to it.
    public func observeCommits(_ observer: @escaping @Sendable (Int64) -> Void) {
        appender.commitObservers.withLock { $0.append(observer) }
    }

    /// Finishes queued appends and stops the appender.
    public func close() { appender.close() }

    /// What the appender has done since start, and where its time went.
    public var appendStatistics: (transactions: Int, appends: Int, eventsWritten: Int, failedAppends: Int, phases: AppendPhases) {
        let s = appender.statistics.withLock { $0 }
        return (s.transactions, s.appends, s.eventsWritten, s.failedAppends, s.phases)
    }
}
