import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTP

/// The threads that run handlers: every accepted job runs once, `stop` drains the queue,
/// and work goes to the thread that went idle last, so that a few warm threads serve a
/// light load instead of all of them in turn.
@Suite("Server: worker pool", .bounded)
struct WorkerPoolTests {
    @Test("every accepted job runs exactly once, from many submitters, and stop drains the queue")
    func everyJobRunsOnce() {
        for round in 0..<20 {
            let pool = WorkerPool(threads: 1 + round % 5, queueLimit: 100_000, name: "test-pool")
            let runs = Mutex([Int](repeating: 0, count: 8 * 300))
            let accepted = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 8) { submitter in
                for j in 0..<300 {
                    let id = submitter * 300 + j
                    if pool.submit(client: "client-\(id % (1 + round))", { runs.withLock { $0[id] += 1 } }) {
                        accepted.add(1, ordering: .relaxed)
                    }
                }
            }
            pool.stop()
            #expect(accepted.load(ordering: .relaxed) == 8 * 300, "round \(round)")
            #expect(runs.withLock { $0.allSatisfy { $0 == 1 } }, "round \(round): a job ran twice or not at all")
            let late = pool.submit(client: "late") {}
            #expect(!late, "round \(round): a stopped pool took a job")
        }
    }

    @Test("a job wakes the thread that went idle last")
    func lastIdleThreadServes() throws {
        let pool = WorkerPool(threads: 6, queueLimit: 10, name: "test-warm")
        defer { pool.stop() }
        #expect(Poll.until { pool.idle == 6 })
        let threads = Mutex(Set<String>())
        for _ in 0..<40 {
            let done = DispatchSemaphore(value: 0)
            let accepted = pool.submit(client: "one") {
                threads.withLock { _ = $0.insert(Thread.current.name ?? "?") }
                done.signal()
            }
            #expect(accepted)
            done.wait()
            // The next job comes once the thread is back on the idle stack.
            #expect(Poll.until { pool.idle == 6 })
        }
        #expect(threads.withLock { $0.count } == 1, "jobs one at a time ran on \(threads.withLock { $0.sorted() })")
    }
}
