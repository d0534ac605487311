import Dispatch
import EventStore
import Foundation
import Postgres
import Synchronization

/// Reads the log ahead of a rebuild on a connection and thread of its own, so that
/// reading and decoding the next batch overlaps folding this one. The log is immutable
/// and gapless, so reading ahead can neither skip nor see an event twice.
final class EventPrefetcher: Sendable {
    private struct State: Sendable {
        var ready: [Result<[RecordedEvent], any Error>] = []
        /// The reader has queued its last batch (or its error).
        var done = false
        var stopped = false
    }
    private let state = Mutex(State())
    private let filled = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let finished = DispatchSemaphore(value: 0)

    /// Starts reading events after `position`, `batchSize` at a time, up to `ahead` batches
    /// ahead of the consumer. A batch shorter than `batchSize` ends the reading (the head).
    init(conninfo: String, after position: Int64, batchSize: Int, ahead: Int = 2) {
        free = DispatchSemaphore(value: ahead)
        let thread = Thread { [self] in
            defer { finished.signal() }
            var after = position
            do {
                let connection = try PostgresConnection(conninfo: conninfo)
                while true {
                    free.wait()
                    if state.withLock({ $0.stopped }) { return }
                    let events = try EventStore.read(after: after, limit: batchSize, on: connection)
                    let last = events.count < batchSize
                    state.withLock {
                        $0.ready.append(.success(events))
                        $0.done = last
                    }
                    filled.signal()
                    if last { return }
                    after = events.last!.position
                }
            } catch {
                state.withLock {
                    $0.ready.append(.failure(error))
                    $0.done = true
                }
                filled.signal()
            }
        }
        thread.name = "ledger-prefetch"
        thread.start()
    }

    /// The next batch; empty once the reading has reached the head and every batch was taken.
    func next() throws -> [RecordedEvent] {
        if state.withLock({ $0.done && $0.ready.isEmpty }) { return [] }
        filled.wait()
        let result = state.withLock { $0.ready.removeFirst() }
        free.signal()
        return try result.get()
    }

    /// Stops reading and waits for the reader to end.
    func stop() {
        state.withLock { $0.stopped = true }
        free.signal()
        finished.wait()
    }
}
