import Dispatch
import Foundation
import LedgerCLI
import Synchronization
import Threads

/// A closed loop of measured operations: `concurrency` threads, each with what
/// `worker(thread)` sets up for it (a keep-alive client, a connection), take operation
/// numbers from a shared counter until `count` are done, and each operation's latency is
/// kept. The first failure stops every thread and is rethrown. With `interval`, operation
/// i starts no earlier than i · interval seconds after the start (a paced load, as long as
/// a thread is free), and its latency is timed from when it starts.
enum ClosedLoop {
    static func run(concurrency: Int, count: Int, name: String, interval: Double? = nil,
                    worker: @escaping @Sendable (Int) throws -> (Int) throws -> Void) throws -> LatencySummary {
        let next = Atomic<Int>(0)
        let failure = Mutex<(any Error)?>(nil)
        let failed = Atomic<Bool>(false)
        let latencies = Mutex<[Double]>([])
        let start = DispatchTime.now().uptimeNanoseconds
        ThreadGroup.run(concurrency, name: name) { thread in
            // Latencies are kept per thread and merged once, so that the measured loop
            // takes no shared lock per operation.
            var mine: [Double] = []
            mine.reserveCapacity(count / concurrency + 1)
            defer { latencies.withLock { $0.append(contentsOf: mine) } }
            do {
                let operation = try worker(thread)
                while !failed.load(ordering: .relaxed) {
                    let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard i < count else { return }
                    if let interval {
                        let due = start + UInt64(Double(i) * interval * 1e9)
                        let now = DispatchTime.now().uptimeNanoseconds
                        if now < due { usleep(UInt32(min((due - now) / 1_000, UInt64(UInt32.max)))) }
                    }
                    let sent = DispatchTime.now().uptimeNanoseconds
                    try operation(i)
                    mine.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e9)
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
                failed.store(true, ordering: .relaxed)
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if let error = failure.withLock({ $0 }) { throw error }
        return LatencySummary(latencies: latencies.withLock { $0 }, seconds: seconds)
    }
}
