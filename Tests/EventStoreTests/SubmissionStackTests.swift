import Dispatch
@testable import EventStore
import Foundation
import LedgerJSON
import Synchronization
import Testing
import TestSupport
import Threads

/// The appender's submission stack (docs/event-log.md, "Group commit") and the close of the appender around it:
/// many submitters, one consumer, nothing lost, nothing taken twice, each submitter's
/// order kept (an append that expects the version its previous one made relies on it).
@Suite("Appending: the submission stack", .bounded)
struct SubmissionStackTests {
    struct Item: Sendable, Hashable {
        var producer: Int
        var sequence: Int
    }

    @Test("generated runs: every push is taken once, in each producer's order")
    func concurrentPushesAreTakenOnceInOrder() {
        var random = SeededRandom(seed: 10)
        for round in 0..<60 {
            let producers = Int.random(in: 1...12, using: &random)
            let perProducer = Int.random(in: 1...2_000, using: &random)
            let stack = SubmissionStack<Item>()
            let pushing = Atomic<Int>(producers)
            let taken = Mutex<[Item]>([])
            let consumerDone = DispatchSemaphore(value: 0)
            let consumer = Thread {
                var local: [Item] = []
                while true {
                    let finished = pushing.load(ordering: .sequentiallyConsistent) == 0
                    local.append(contentsOf: stack.takeAll())
                    if finished { break }
                }
                local.append(contentsOf: stack.takeAll())
                taken.withLock { $0 = local }
                consumerDone.signal()
            }
            consumer.start()
            ThreadGroup.run(producers, name: "test-push") { p in
                for s in 0..<perProducer { _ = stack.push(Item(producer: p, sequence: s)) }
                pushing.wrappingSubtract(1, ordering: .sequentiallyConsistent)
            }
            consumerDone.wait()
            let items = taken.withLock { $0 }
            #expect(items.count == producers * perProducer, "round \(round): \(items.count) taken")
            #expect(Set(items).count == items.count, "round \(round): an item was taken twice")
            var next = [Int](repeating: 0, count: producers)
            for item in items {
                #expect(item.sequence == next[item.producer], "round \(round): producer \(item.producer) out of order")
                next[item.producer] = item.sequence + 1
            }
        }
    }

    @Test("a push reports whether it ended the emptiness the consumer waits on")
    func pushReportsEmptiness() {
        let stack = SubmissionStack<Int>()
        #expect(stack.push(1))
        #expect(!stack.push(2))
        #expect(stack.takeAll() == [1, 2])
        #expect(stack.takeAll() == [])
        #expect(stack.push(3))
    }

    /// `PreparedAppend` made ahead and submitted later (what `ledger bench append` times):
    /// written as prepared, with the event id chosen at preparation; a request refused at
    /// preparation never reaches the appender.
    @Test("an append prepared ahead is written as it was prepared")
    func preparedAhead() throws {
        try withStore { store, db in
            let prepared = try PreparedAppend(AppendRequest(event("prepared-1", data: ["n": 7]), expected: .noStream))
            #expect(throws: AppendError.self) { try PreparedAppend(AppendRequest(event("not a stream"))) }
            let answer = Mutex<Result<AppendResult, AppendError>?>(nil)
            store.submit(prepared) { result in answer.withLock { $0 = result } }
            #expect(Poll.until(timeout: 30) { answer.withLock { $0 } != nil })
            let result = try #require(answer.withLock { $0 }).get()
            #expect(result.events.map(\.eventID) == prepared.events.map(\.eventID))
            let rows = try db.connect().query("SELECT stream, data::text FROM events")
            #expect(rows.rowCount == 1)
            #expect(rows.string(row: 0, column: 0) == "prepared-1")
            #expect(rows.string(row: 0, column: 1) == #"{"n": 7}"#)
        }
    }

    /// Closing while 16 threads submit: every append is answered exactly once, either
    /// written (and then in the log) or refused with `closed` (and then not).
    @Test("closing under submits answers every append once, and only the written ones are in the log")
    func closeRacingSubmits() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        for round in 0..<5 {
            let store = EventStore(conninfo: db.writerURL)
            let answers = Mutex<[String: [Bool]]>([:])
            let started = Atomic<Int>(0)
            let closer = Thread {
                // Close once some appends are in flight, while the rest are still coming.
                _ = Poll.until(timeout: 30, interval: 0.001) { started.load(ordering: .relaxed) >= 200 }
                store.close()
            }
            closer.start()
            ThreadGroup.run(16, name: "test-submit") { t in
                // One append in flight per thread, so that submits go on for many group
                // commits and the close falls among them.
                let answered = DispatchSemaphore(value: 0)
                for i in 0..<100 {
                    defer { answered.wait() }
                    let stream = "close-\(round)-\(t)-\(i)"
                    started.add(1, ordering: .relaxed)
                    store.submit(AppendRequest(event(stream))) { result in
                        defer { answered.signal() }
                        let written: Bool
                        switch result {
                        case .success: written = true
                        case .failure(let error):
                            #expect(error.code == .closed, "\(stream): \(error)")
                            written = false
                        }
                        answers.withLock { $0[stream, default: []].append(written) }
                    }
                }
            }
            #expect(Poll.until(timeout: 60) { answers.withLock { $0.count } == 1_600 }, "round \(round): appends left unanswered")
            let all = answers.withLock { $0 }
            #expect(all.values.allSatisfy { $0.count == 1 }, "round \(round): an append was answered twice")
            let written = Set(all.filter { $0.value == [true] }.keys)
            #expect(written.count >= 200 - 16 && written.count < 1_600, "round \(round): \(written.count) written; the close missed the submits")
            let rows = try db.connect().query("SELECT stream FROM events WHERE stream LIKE $1", ["close-\(round)-%"])
            let inLog = Set((0..<rows.rowCount).compactMap { rows.string(row: $0, column: 0) })
            #expect(inLog == written, "round \(round): the log and the answers disagree")
        }
    }
}
