import Dispatch
@testable import EventStore
import Foundation
import Synchronization
import Testing
import TestSupport

/// The appender's answering thread (docs/event-log.md, "Group commit"): every append of a
/// group commit answered once with its own outcome, batches in the order they committed,
/// off the appender's thread; and the wait the appender takes before a partial batch ends
/// only when every answer handed over has been given.
@Suite("Appending: answers on a thread of their own", .bounded)
struct AppendAnswererTests {
    private static func outcome(_ batch: Int, _ index: Int) -> Result<AppendResult, AppendError> {
        .success(AppendResult(events: [AppendedEvent(position: Int64(batch * 1_000 + index), eventID: UUID(), stream: "s",
                                                     streamVersion: 1, alreadyRecorded: false)], replayed: false))
    }

    @Test("generated batches: each completion answered once, with its own outcome, batches in the order handed")
    func batchesAnsweredInOrder() {
        var random = SeededRandom(seed: 48)
        for round in 0..<20 {
            let answerer = AppendAnswerer()
            let seen = Mutex<[Int64]>([])
            let threads = Mutex<Set<UInt>>([])
            var expected: [Int64] = []
            for batch in 0..<Int.random(in: 1...40, using: &random) {
                let size = Int.random(in: 1...300, using: &random)
                let completions: [AppendAnswerer.Completion] = (0..<size).map { _ in
                    { result in
                        seen.withLock { $0.append((try? result.get())?.position ?? -1) }
                        threads.withLock { _ = $0.insert(UInt(pthread_self())) }
                    }
                }
                expected += (0..<size).map { Int64(batch * 1_000 + $0) }
                answerer.answer(AppendAnswerer.Answers(completions: completions, outcomes: (0..<size).map { Self.outcome(batch, $0) }))
            }
            answerer.close()
            #expect(seen.withLock { $0 } == expected, "round \(round)")
            let answering = threads.withLock { $0 }
            #expect(answering.count == 1 && !answering.contains(UInt(pthread_self())), "round \(round): answered on \(answering)")
        }
    }

    @Test("waiting for answers ends once the last completion handed over has run, and not before")
    func waitEndsAfterTheLastAnswer() {
        let answerer = AppendAnswerer()
        #expect(!answerer.waitForAnswers(), "nothing handed over: nothing to wait for")
        let gate = DispatchSemaphore(value: 0)
        let answered = Atomic<Bool>(false)
        answerer.answer(AppendAnswerer.Answers(completions: [{ _ in }, { _ in
            gate.wait()
            answered.store(true, ordering: .sequentiallyConsistent)
        }], outcomes: [Self.outcome(0, 0), Self.outcome(0, 1)]))
        let waited = Mutex<(returned: Bool, sawAnswer: Bool)?>(nil)
        let waiter = Thread {
            let busy = answerer.waitForAnswers()
            waited.withLock { $0 = (busy, answered.load(ordering: .sequentiallyConsistent)) }
        }
        waiter.start()
        #expect(Poll.until(timeout: 30) { answerer.appenderWaits }, "the waiter never waited")
        #expect(waited.withLock { $0 } == nil, "the wait ended while a completion was still running")
        gate.signal()
        #expect(Poll.until(timeout: 30) { waited.withLock { $0 } != nil })
        #expect(waited.withLock { $0 }?.returned == true)
        #expect(waited.withLock { $0 }?.sawAnswer == true, "the wait ended before the last completion had run")
        answerer.close()
    }

    /// With a full batch queued, the appender writes it while the answers of the one
    /// before are still being given: here a completion held on purpose (which callers must
    /// not do) while the next append is written. Its answer waits its turn behind the held
    /// one. The append lock, held from another session, keeps the appender on a first
    /// append until both are queued, so that each is a full batch behind the one before.
    @Test("a store writes a full batch while the last one's answers are still running, and answers in commit order")
    func fullBatchWrittenBesideAnswers() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL, maximumBatchEvents: 1)
        defer { store.close() }
        let heads = Mutex<[Int64]>([])
        store.observeCommits { head in heads.withLock { $0.append(head) } }
        let blocker = try db.connect()
        try blocker.query("SELECT pg_advisory_lock(\(AdvisoryLock.namespace), \(AdvisoryLock.append))")
        let gate = DispatchSemaphore(value: 0)
        let answers = Mutex<[(position: Int64, headsHeard: [Int64])]>([])
        @Sendable func record(_ result: Result<AppendResult, AppendError>) {
            let position = (try? result.get())?.position ?? -1
            answers.withLock { $0.append((position, heads.withLock { $0 })) }
        }
        store.submit(AppendRequest(event("first"))) { result in record(result) }
        #expect(Poll.until(timeout: 30) {
            let waiting = try? blocker.query("""
                SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """)
            return waiting?[0].int64(0) == 1
        }, "the appender never waited for the append lock")
        store.submit(AppendRequest(event("held-1"))) { result in
            gate.wait()
            record(result)
        }
        store.submit(AppendRequest(event("held-2"))) { result in record(result) }
        try blocker.query("SELECT pg_advisory_unlock(\(AdvisoryLock.namespace), \(AdvisoryLock.append))")
        #expect(Poll.until(timeout: 30) { (try? store.log.headPosition()) == 3 }, "the last append was not written while an answer was held")
        #expect(answers.withLock { $0 }.map(\.position) == [1])
        gate.signal()
        #expect(Poll.until(timeout: 30) { answers.withLock { $0 }.count == 3 })
        let seen = answers.withLock { $0 }
        #expect(seen.map(\.position) == [1, 2, 3])
        // Each append is answered after the commit observers heard its head.
        for answer in seen { #expect(answer.headsHeard.contains(answer.position)) }
    }

    @Test("with no full batch queued, the appender answers on its own thread, after the answers handed over")
    func partialBatchAnsweredHere() {
        let answerer = AppendAnswerer()
        let order = Mutex<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        answerer.answer(AppendAnswerer.Answers(completions: [{ _ in
            gate.wait()
            order.withLock { $0.append("handed") }
        }], outcomes: [Self.outcome(0, 0)]))
        let caller = UInt(pthread_self())
        let here = Mutex<UInt?>(nil)
        let done = Atomic<Bool>(false)
        let appender = Thread {
            answerer.answerHere(AppendAnswerer.Answers(completions: [{ _ in
                here.withLock { $0 = UInt(pthread_self()) }
                order.withLock { $0.append("here") }
            }], outcomes: [Self.outcome(1, 0)]))
            done.store(true, ordering: .sequentiallyConsistent)
        }
        appender.start()
        #expect(Poll.until(timeout: 30) { answerer.appenderWaits }, "the appender did not wait for the answers handed over")
        #expect(order.withLock { $0 }.isEmpty, "answered here before the batch handed over")
        gate.signal()
        #expect(Poll.until(timeout: 30) { done.load(ordering: .sequentiallyConsistent) })
        #expect(order.withLock { $0 } == ["handed", "here"])
        #expect(here.withLock { $0 } != nil && here.withLock { $0 } != caller)
        answerer.close()
    }
}
