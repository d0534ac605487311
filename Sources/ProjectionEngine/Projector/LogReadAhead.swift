import Dispatch
import EventStore
import Postgres
import Synchronization

/// Reads the projector's next batch of the log on a connection of its own while the
/// projector applies this one, so that reading and decoding the log overlaps folding it.
/// The log is immutable and commits in position order, so a batch read ahead is the one
/// the projector would read itself; it is used only when the projector asks for exactly
/// the position it was read after, and any failure just leaves the projector to read.
final class LogReadAhead: Sendable {
    private struct Read: Sendable {
        var after: Int64
        var events: [RecordedEvent]?
    }
    private let conninfo: String
    private let batchSize: Int
    private let queue = DispatchQueue(label: "ledger-projector-read-ahead")
    private let inFlight = DispatchGroup()
    private let read = Mutex<Read?>(nil)
    // Touched only on `queue`.
    private let connection = Mutex<PostgresConnection?>(nil)

    init(conninfo: String, batchSize: Int) {
        self.conninfo = conninfo
        self.batchSize = batchSize
    }

    /// Starts reading the batch after `position`.
    func start(after position: Int64) {
        inFlight.wait()
        read.withLock { $0 = Read(after: position) }
        inFlight.enter()
        queue.async { [self] in
            defer { inFlight.leave() }
            do {
                let events = try connection.withLock { connection in
                    if connection == nil || connection?.isOpen == false { connection = try PostgresConnection(conninfo: conninfo) }
                    return try LogReader(connection!).read(after: position, limit: batchSize)
                }
                read.withLock { $0?.events = events }
            } catch {
                connection.withLock { $0 = nil }
            }
        }
    }

    /// The batch after `position` if it was read ahead (waiting for the read to end); nil
    /// when it was not, or the read failed.
    func take(after position: Int64) -> [RecordedEvent]? {
        inFlight.wait()
        return read.withLock { current in
            defer { current = nil }
            return current?.after == position ? current?.events : nil
        }
    }
}
