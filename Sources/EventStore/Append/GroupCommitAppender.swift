import Dispatch
import Foundation
import Postgres
import Synchronization

/// The one appender of a process (DESIGN §2, group commit).
///
/// Request threads hand it prepared appends and wait; a single thread takes everything
/// queued (up to `maximumBatchEvents`), writes it in one transaction under the append
/// lock, and answers each append with its own result. While one batch commits the next
/// one queues up, so the batch grows with the load and the cost of a commit (the lock,
/// the head read, the WAL flush) is shared by everyone in it.
final class GroupCommitAppender: Sendable {
    typealias Completion = @Sendable (Result<AppendResult, AppendError>) -> Void

    private struct Pending: Sendable {
        var append: PreparedAppend
        var completion: Completion
    }

    private struct Queue: Sendable {
        var items: [Pending] = []
        var closed = false
    }

    /// Counters since start, for metrics and the benchmark.
    struct Statistics: Sendable, Equatable {
        var transactions = 0
        var appends = 0
        var eventsWritten = 0
        var failedAppends = 0
        var lastPosition: Int64 = 0
        var phases = AppendPhases()
    }

    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let writer: AppendWriter
    private let maximumBatchEvents: Int
    let statistics = Mutex(Statistics())

    init(conninfo: String, maximumBatchEvents: Int, faults: AppendFaults, resolveTimeout: Double) {
        self.writer = AppendWriter(conninfo: conninfo, faults: faults, resolveTimeout: resolveTimeout)
        self.maximumBatchEvents = maximumBatchEvents
        let thread = Thread { [self] in self.run() }
        thread.name = "ledger-appender"
        thread.start()
    }

    func submit(_ append: PreparedAppend, completion: @escaping Completion) {
        let accepted = queue.withLock { q -> Bool in
            guard !q.closed else { return false }
            q.items.append(Pending(append: append, completion: completion))
            return true
        }
        guard accepted else {
            completion(.failure(AppendError(code: .closed, message: "the event store is shutting down")))
            return
        }
        wake.signal()
    }

    /// Writes what is queued, then stops the thread. Appends submitted later fail with `closed`.
    func close() {
        let first = queue.withLock { q -> Bool in
            defer { q.closed = true }
            return !q.closed
        }
        guard first else { return }
        wake.signal()
        finished.wait()
    }

    private func run() {
        while true {
            wake.wait()
            while true {
                let (batch, stop) = queue.withLock { q -> ([Pending], Bool) in
                    var taken = 0
                    var events = 0
                    while taken < q.items.count {
                        let n = q.items[taken].append.events.count
                        if taken > 0 && events + n > maximumBatchEvents { break }
                        events += n
                        taken += 1
                    }
                    let batch = Array(q.items.prefix(taken))
                    q.items.removeFirst(taken)
                    return (batch, q.closed && q.items.isEmpty)
                }
                if !batch.isEmpty { process(batch) }
                if stop {
                    writer.disconnect()
                    finished.signal()
                    return
                }
                if batch.isEmpty { break }
            }
        }
    }

    private func process(_ batch: [Pending]) {
        let outcomes = writer.write(batch.map(\.append))
        let phases = writer.phases
        statistics.withLock { s in
            s.phases = phases
            s.transactions += 1
            s.appends += batch.count
            for outcome in outcomes {
                switch outcome {
                case .success(let r):
                    s.eventsWritten += r.replayed ? 0 : r.events.filter { !$0.alreadyRecorded }.count
                    s.lastPosition = max(s.lastPosition, r.position)
                case .failure: s.failedAppends += 1
                }
            }
        }
        for (pending, outcome) in zip(batch, outcomes) { pending.completion(outcome) }
    }
}
