import BenchHTTP
import Dispatch
import Foundation
import Synchronization

/// Read-your-writes as a client sees it: after each append's answer, a read of the same
/// position (`min_position`) on connections of its own, timed from the moment the answer
/// was received to the read's 200. A read the service gives up on after its bound (503
/// `projection_behind`) counts at the time it gave up, and is counted apart. A read starts
/// the moment its answer arrives, on an idle reader, or not at all (counted as skipped):
/// a probe queued behind others would time its own queue, not the projector.
final class VisibilityProbe: Sendable {
    private struct Probe: Sendable { var position: Int64; var answered: UInt64 }
    private struct State: Sendable {
        var waiting: [Probe] = []
        var next = 0
        var seconds: [Double] = []
        var notVisible = 0
        var skipped = 0
        var idle: Int
        var failure: String?
    }

    private let state: Mutex<State>
    private let available = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()
    private let readers: Int

    /// `readers` threads, each with its own keep-alive client, read `path` with
    /// `?min_position=` and one of `credentials` (headers with a key that may read it), in
    /// turn: the server admits a bounded number of requests in flight per credential.
    init(port: Int, path: String, credentials: [[(String, String)]], readers: Int = 64) {
        self.readers = readers
        self.state = Mutex(State(idle: readers))
        for r in 0..<readers {
            finished.enter()
            let headers = credentials[r % credentials.count]
            let thread = Thread { [self] in
                defer { finished.leave() }
                guard let client = try? HTTPClient(host: "127.0.0.1", port: port, timeout: 30) else {
                    state.withLock { $0.failure = "the visibility reader could not connect" }
                    return
                }
                while true {
                    available.wait()
                    let probe = state.withLock { s -> Probe? in
                        guard s.next < s.waiting.count else { return nil }
                        defer { s.next += 1 }
                        return s.waiting[s.next]
                    }
                    guard let probe else { return }   // closed, nothing left
                    do {
                        let response = try client.send(method: "GET", path: path + "?min_position=\(probe.position)", headers: headers)
                        let seconds = Double(DispatchTime.now().uptimeNanoseconds - probe.answered) / 1e9
                        state.withLock { s in
                            s.idle += 1
                            switch response.status {
                            case 200: s.seconds.append(seconds)
                            case 503: s.seconds.append(seconds); s.notVisible += 1
                            default: s.failure = s.failure ?? "a read with min_position answered \(response.status)"
                            }
                        }
                    } catch {
                        state.withLock { s in
                            s.idle += 1
                            s.failure = s.failure ?? "a read with min_position failed: \(error)"
                        }
                    }
                }
            }
            thread.name = "bench-visible-\(r)"
            thread.start()
        }
    }

    /// An append was answered with `position`, now.
    func answered(position: Int64) {
        let now = DispatchTime.now().uptimeNanoseconds
        let taken = state.withLock { s -> Bool in
            guard s.idle > 0 else { s.skipped += 1; return false }
            s.idle -= 1
            s.waiting.append(Probe(position: position, answered: now))
            return true
        }
        if taken { available.signal() }
    }

    struct Summary {
        var count: Int
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var maxMilliseconds: Double
        var notVisible: Int
        var skipped: Int
    }

    /// Waits for the reads still under way, then stops the readers.
    func stop() throws -> Summary {
        for _ in 0..<readers { available.signal() }   // one wake-up each, to see there is nothing left
        finished.wait()
        let s = state.withLock { $0 }
        if let failure = s.failure { throw BenchmarkFailure(.unexpectedResponse, failure) }
        let sorted = s.seconds.sorted()
        return Summary(count: sorted.count, p50Milliseconds: Percentile.nearestRank(sorted, 0.5) * 1000,
                       p99Milliseconds: Percentile.nearestRank(sorted, 0.99) * 1000, maxMilliseconds: (sorted.last ?? 0) * 1000,
                       notVisible: s.notVisible, skipped: s.skipped)
    }
}
