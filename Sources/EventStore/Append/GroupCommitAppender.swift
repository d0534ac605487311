import Dispatch
import Foundation
import Postgres
import Synchronization

/// The one appender of a process (docs/event-log.md, "Group commit").
///
/// Request threads hand it prepared appends and wait; a single thread takes everything
/// queued (up to `maximumBatchEvents`), writes it in one transaction under the append
/// lock, and answers each append with its own result, or hands the answers to the
/// answering thread (`AppendAnswerer`) when a full batch is already waiting.
/// While one batch commits the next one queues up, so the batch grows with the load and
/// the cost of a commit (the lock, the head read, the WAL flush) is shared by everyone in it.
final class GroupCommitAppender: Sendable {
    typealias Completion = @Sendable (Result<AppendResult, AppendError>) -> Void

    private struct Pending: Sendable {
        var append: PreparedAppend
        var completion: Completion
    }

    /// Counters since start, for metrics and the benchmark.
    struct Statistics: Sendable, Equatable {
        var transactions = 0
        var appends = 0
        var eventsWritten = 0
        var failedAppends = 0
        var lastPosition: Int64 = 0
        /// The position of the last event this appender wrote itself (not a replay).
        var lastFreshPosition: Int64 = 0
        var phases = AppendPhases()
    }

    private let submissions = SubmissionStack<Pending>()
    private let closed = Atomic<Bool>(false)
    /// Submits between their look at `closed` and their push: on close, the appender
    /// waits for these before its last look at the stack.
    private let submitting = Atomic<Int>(0)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let writer: AppendWriter
    private let answerer = AppendAnswerer()
    private let maximumBatchEvents: Int
    let statistics = Mutex(Statistics())
    /// Told the head after each transaction that committed events, before any of its
    /// appends is answered (`EventStore.observeCommits`).
    let commitObservers = Mutex<[@Sendable (Int64) -> Void]>([])

    init(conninfo: String, maximumBatchEvents: Int, faults: AppendFaults, resolveTimeout: Double) {
        self.writer = AppendWriter(conninfo: conninfo, faults: faults, resolveTimeout: resolveTimeout)
        self.maximumBatchEvents = maximumBatchEvents
        let thread = Thread { [self] in self.run() }
        thread.name = "ledger-appender"
        thread.start()
    }

    func submit(_ append: PreparedAppend, completion: @escaping Completion) {
        submitting.wrappingAdd(1, ordering: .sequentiallyConsistent)
        guard !closed.load(ordering: .sequentiallyConsistent) else {
            submitting.wrappingSubtract(1, ordering: .sequentiallyConsistent)
            completion(.failure(AppendError(code: .closed, message: "the event store is shutting down")))
            return
        }
        let wasEmpty = submissions.push(Pending(append: append, completion: completion))
        submitting.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        // The appender sleeps only after it found the stack empty, so only the push that
        // ends the emptiness has to wake it.
        if wasEmpty { wake.signal() }
    }

    /// Writes what is queued, then stops the thread. Appends submitted later fail with `closed`.
    func close() {
        guard closed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else { return }
        wake.signal()
        finished.wait()
    }

    private func run() {
        // Taken from the stack, not yet written: a group commit carries at most
        // `maximumBatchEvents`, and the rest waits here in submission order.
        var backlog: [Pending] = []
        while true {
            backlog.append(contentsOf: submissions.takeAll())
            if backlog.isEmpty {
                guard closed.load(ordering: .sequentiallyConsistent) else {
                    wake.wait()
                    continue
                }
                // A submit that saw the store open is pushing still, or has pushed.
                while submitting.load(ordering: .sequentiallyConsistent) > 0 { sched_yield() }
                backlog = submissions.takeAll()
                if backlog.isEmpty {
                    writer.disconnect()
                    answerer.close()
                    finished.signal()
                    return
                }
            }
            var end = 0
            var events = 0
            while end < backlog.count {
                let n = backlog[end].append.events.count
                if end > 0 && events + n > maximumBatchEvents { break }
                events += n
                end += 1
            }
            // Less than a full batch queued while answers handed over are still being given:
            // those callers are about to send more. Taking what is queued now would pay a
            // whole commit for a few appends (group commits alternated between large and
            // small when the appends in flight were about one batch); the appender takes it
            // once they are answered, as it would have after answering them itself.
            if end == backlog.count && events < maximumBatchEvents && answerer.waitForAnswers() { continue }
            let batch: [Pending]
            if end == backlog.count {
                batch = backlog
                backlog = []
            } else {
                batch = Array(backlog[..<end])
                backlog.removeFirst(end)
            }
            let answers = process(batch)
            // A full batch already queued: it is written while another thread answers these
            // callers. Otherwise they are answered here, as before there was another
            // thread: handing them over would only add that thread's wake-up to the time
            // until they send again (the wait above would take it).
            backlog.append(contentsOf: submissions.takeAll())
            var queued = 0
            for pending in backlog where queued < maximumBatchEvents { queued += pending.append.events.count }
            if queued >= maximumBatchEvents {
                answerer.answer(answers)
            } else {
                answerer.answerHere(answers)
            }
        }
    }

    /// Writes `batch` and records it; its answers are for the caller to give.
    private func process(_ batch: [Pending]) -> AppendAnswerer.Answers {
        let outcomes = writer.write(batch.map(\.append))
        // Each request is answered with its own outcome: a missing one would leave its
        // client waiting, then told "outcome unknown" for an append that is in the log.
        precondition(outcomes.count == batch.count, "the writer answered \(outcomes.count) outcomes for \(batch.count) appends")
        let phases = writer.phases
        let head = statistics.withLock { s -> Int64? in
            let before = s.lastFreshPosition
            s.phases = phases
            s.transactions += 1
            s.appends += batch.count
            for outcome in outcomes {
                switch outcome {
                case .success(let r):
                    // This thread is the process's only appender and commits one transaction
                    // at a time: what it writes lands after everything it wrote before.
                    for event in r.events where !r.replayed && !event.alreadyRecorded {
                        precondition(event.position > s.lastFreshPosition,
                                     "appended at position \(event.position), not after \(s.lastFreshPosition) appended before")
                        s.lastFreshPosition = event.position
                        s.eventsWritten += 1
                    }
                    s.lastPosition = max(s.lastPosition, r.position)
                case .failure: s.failedAppends += 1
                }
            }
            return s.lastFreshPosition > before ? s.lastFreshPosition : nil
        }
        if let head { for observer in commitObservers.withLock({ $0 }) { observer(head) } }
        return AppendAnswerer.Answers(completions: batch.map(\.completion), outcomes: outcomes,
                                      released: [batch, writer.takeCommittedRows()])
    }
}
