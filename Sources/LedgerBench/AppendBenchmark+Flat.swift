import Dispatch
import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import Postgres
import Synchronization
import Threads

// `ledger-bench append --preload N`: is the append path as fast on a large log as on an
// empty one? The log is filled through the real append path, so the chain,
// the versions and the insert trigger's checks hold for every preloaded event, only in
// appends of 5,000 events and group commits of up to 20,000.

extension AppendBenchmark {
    static let preloadAppendEvents = 5_000

    /// Appends `count` events over `streams` streams; returns the head and the rate.
    static func preload(url: String, count: Int, run: String, streams: Int) throws -> (head: Int64, rate: Double) {
        let store = EventStore(conninfo: url, maximumBatchEvents: 4 * preloadAppendEvents)
        defer { store.close() }
        let metadata = EventMetadata(actor: Actor(.system, "bench"))
        let appends = (count + preloadAppendEvents - 1) / preloadAppendEvents
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let failure = Mutex<String?>(nil)
        let start = DispatchTime.now().uptimeNanoseconds
        let reporter = DispatchSemaphore(value: 0)
        let progress = Thread {
            while reporter.wait(timeout: .now() + 10) == .timedOut {
                let now = DispatchTime.now().uptimeNanoseconds
                let written = done.load(ordering: .relaxed)
                print(String(format: "preload: %d of %d events (%.0f events/s)", written, count,
                             Double(written) / (Double(now - start) / 1e9)))
            }
        }
        progress.start()
        // Four threads keep the appender's queue full while each prepares its next append.
        ThreadGroup.run(4, name: "bench-preload") { _ in
            while failure.withLock({ $0 == nil }) {
                let a = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard a < appends else { return }
                let range = (a * preloadAppendEvents)..<min(count, (a + 1) * preloadAppendEvents)
                let events = range.map { i in
                    EventToAppend(stream: "bench-preload-\(run)-\(i % streams)", type: "bench.usage_recorded",
                                  data: payload(sequence: i), metadata: metadata)
                }
                do {
                    _ = try store.append(AppendRequest(events: events))
                    done.add(range.count, ordering: .relaxed)
                } catch {
                    failure.withLock { if $0 == nil { $0 = "\(error)" } }
                }
            }
        }
        reporter.signal()
        if let message = failure.withLock({ $0 }) { throw BenchmarkError(message: "preload failed: \(message)") }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (try store.log.headPosition(), Double(count) / seconds)
    }

    /// The p99 latency of one append at a time, each its own transaction: what a lone
    /// caller waits for, with nothing to share a commit with.
    static func singleAppendLatency(url: String, run: String, count: Int = 1_000) throws -> Double {
        let store = EventStore(conninfo: url)
        defer { store.close() }
        let metadata = EventMetadata(actor: Actor(.system, "bench"))
        var latencies: [Double] = []
        latencies.reserveCapacity(count)
        for i in 0..<(count + count / 10) {
            let request = AppendRequest(EventToAppend(stream: "bench-single-\(run)-\(i % 100)", type: "bench.usage_recorded",
                                                      data: payload(sequence: i), metadata: metadata))
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try store.append(request)
            // The first tenth warms the connection and the caches up, unmeasured.
            if i >= count / 10 { latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
        }
        latencies.sort()
        return Percentile.nearestRank(latencies, 0.99)
    }
}
