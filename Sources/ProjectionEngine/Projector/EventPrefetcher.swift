import Dispatch
import EventStore
import Foundation
import Postgres
import Synchronization

/// Reads the log ahead of a rebuild on a connection and thread of its own and hands each
/// batch to every consumer (one per projection), so that reading and decoding overlaps
/// folding, and each projection folds at its own pace. The log is immutable and gapless,
/// so reading ahead can neither skip nor see an event twice.
///
/// A consumer that falls `ahead` batches behind holds the reader back (and so the others,
/// at most that far ahead of it): memory stays bounded whatever the log's size.
final class EventPrefetcher: Sendable {
    /// A batch of the log as one consumer sees it: the events of the types it folds, and
    /// the position the batch reaches, whether or not the consumer folds that event.
    struct Batch: Sendable {
        var events: [RecordedEvent]
        var through: Int64
    }

    private let queues: [HandoffQueue<Result<Batch, any Error>>]
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts reading events after `position`, `batchSize` at a time: from the `archives`
    /// files first (`ledger archive`; each checked as it is read, and linked to the next
    /// and to the live log), then from the database. A batch shorter than `batchSize` ends
    /// the reading (the head). One consumer per element of `consumers`: the event types it
    /// takes (`Projection.eventTypes`), or nil for every event. The batch is filtered here,
    /// once, rather than on each consumer's thread: a million events each walked by seven
    /// threads at once cost more in their shared reference counts than in the folds.
    init(conninfo: String, after position: Int64, batchSize: Int, consumers: [Set<String>?] = [nil], ahead: Int = 2,
         archives: [String] = []) {
        queues = consumers.map { _ in HandoffQueue(capacity: ahead) }
        let split = BatchSplitter(consumers)
        let thread = Thread { [self] in
            func hand(_ events: [RecordedEvent]) -> Bool {
                for (queue, batch) in zip(queues, split.batches(events)) { guard queue.put(.success(batch)) else { return false } }
                return true
            }
            defer {
                for queue in queues { queue.close() }
                finished.signal()
            }
            var after = position
            do {
                var link: [UInt8]?
                for path in archives {
                    let file = try ArchiveReader(path: path)
                    while !stopped.load(ordering: .relaxed) {
                        let events = try file.next(limit: batchSize).filter { $0.position > after }
                        guard let first = events.first else { break }
                        guard first.position == after + 1 else {
                            throw ArchiveReader.Invalid(description: "\(path): starts at position \(first.position), expected \(after + 1)")
                        }
                        if let link, first.prevHash != link {
                            throw ArchiveReader.Invalid(description: "\(path): position \(first.position) does not link to the hash of \(after)")
                        }
                        guard hand(events) else { return }
                        after = events.last!.position
                        link = events.last!.hash
                    }
                }
                let connection = try PostgresConnection(conninfo: conninfo)
                if let link, let next = try LogReader(connection).event(at: after + 1), next.prevHash != link {
                    throw ArchiveReader.Invalid(description: "the live log's event \(after + 1) does not link to the last archive's hash")
                }
                while !stopped.load(ordering: .relaxed) {
                    let events = try LogReader(connection).read(after: after, limit: batchSize)
                    if !events.isEmpty { guard hand(events) else { return } }
                    if events.count < batchSize { return }
                    after = events.last!.position
                }
            } catch {
                for queue in queues { _ = queue.put(.failure(error)) }
            }
        }
        thread.name = "ledger-prefetch"
        thread.start()
    }

    /// The consumer's next batch; nil once the reading has reached the head (or stopped)
    /// and every batch was taken.
    func next(for consumer: Int = 0) throws -> Batch? {
        try queues[consumer].take()?.get()
    }

    /// Stops reading and waits for the reader to end (idempotent).
    func stop() {
        stopped.store(true, ordering: .relaxed)
        for queue in queues { queue.close() }
        finished.wait()
        finished.signal()
    }
}
