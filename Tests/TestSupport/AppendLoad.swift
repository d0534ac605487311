import Dispatch
import EventStore
import Foundation
import LedgerDomain
import Synchronization

/// Writers appending under idempotency keys while a test fails the database over: each
/// sends the same request under the same key until it is answered, as a client retries
/// (docs/scaling.md), so a retry of an append that did commit is answered as the original.
///
/// Writer `w` appends events of type `test.NAME_written` to stream `NAME-w`, its `n`th under
/// key `NAME-w-n`, one after the other until `stop()` (or `maximumPerWriter` appends): the
/// load goes on across whatever the test does to the database meanwhile.
public final class AppendLoad: Sendable {
    /// What an append was answered with, and when.
    public struct Acknowledgement: Sendable {
        public var position: Int64
        public var at: Date
        /// From its first try to its answer, retries included, in seconds.
        public var wait: Double
    }

    public let name: String
    /// The type of every event appended.
    public var eventType: String { "test.\(name)_written" }

    private let acknowledgements = Mutex<[String: Acknowledgement]>([:])
    private let begun = Atomic<Int>(0)
    private let errorCounts = Mutex<[String: Int]>([:])
    private let stopRequested = Atomic<Bool>(false)
    private let nudged = Atomic<Int>(0)
    private let group = DispatchGroup()

    /// Starts `writers` threads appending through `store`, each at most one append every
    /// `pace` seconds.
    public init(store: EventStore, name: String, writers: Int = 4, pace: Double = 0, maximumPerWriter: Int = 5_000) {
        self.name = name
        for writer in 0..<writers {
            group.enter()
            Thread.detachNewThread { [self] in
                defer { group.leave() }
                var n = 0
                while n < maximumPerWriter && !stopRequested.load(ordering: .relaxed) {
                    let started = Date()
                    append(store: store, writer: writer, n: n)
                    n += 1
                    let rest = pace - Date().timeIntervalSince(started)
                    if rest > 0 { _ = Poll.until(timeout: rest, interval: rest) { stopRequested.load(ordering: .relaxed) } }
                }
            }
        }
    }

    private func append(store: EventStore, writer: Int, n: Int) {
        let key = "\(name)-\(writer)-\(n)"
        begun.add(1, ordering: .relaxed)
        let event = EventToAppend(stream: "\(name)-\(writer)", type: eventType,
                                  data: ["writer": .integer(Int64(writer)), "n": .integer(Int64(n))],
                                  metadata: EventMetadata(actor: Actor(.system, "test")))
        let started = Date()
        while Date().timeIntervalSince(started) < 60 {
            do {
                let result = try store.append(AppendRequest(events: [event], idempotencyKey: key))
                let now = Date()
                acknowledgements.withLock { $0[key] = Acknowledgement(position: result.position, at: now, wait: now.timeIntervalSince(started)) }
                return
            } catch {
                errorCounts.withLock { $0[error.code.rawValue, default: 0] += 1 }
                // While nothing takes writes: again after 50 ms, or at once when nudged.
                let seen = nudged.load(ordering: .relaxed)
                _ = Poll.until(timeout: 0.05) { nudged.load(ordering: .relaxed) != seen }
            }
        }
    }

    /// Each writer finishes the append it is on (answered, or given up after a minute of
    /// errors) and starts no other.
    public func stop() { stopRequested.store(true, ordering: .relaxed) }

    /// Makes every writer waiting to retry retry now (the database takes writes again).
    public func nudge() { nudged.add(1, ordering: .relaxed) }

    /// Waits until every writer has stopped; false on `timeout`.
    public func wait(timeout: Double) -> Bool { group.wait(timeout: .now() + timeout) == .success }

    /// How many appends were begun (each under a key of its own).
    public var attempted: Int { begun.load(ordering: .relaxed) }

    /// Idempotency key → the position its append was answered with, and when.
    public var acknowledged: [String: Acknowledgement] { acknowledgements.withLock { $0 } }

    /// Error code → how many times an append was answered with it (and retried).
    public var errors: [String: Int] { errorCounts.withLock { $0 } }

    /// Waits until `count` appends were answered.
    public func waitUntilAcknowledged(_ count: Int, timeout: Double = 30) -> Bool {
        Poll.until(timeout: timeout) { acknowledgements.withLock { $0.count } >= count }
    }

    /// How many appends were answered after `instant`.
    public func acknowledgedCount(after instant: Date) -> Int { acknowledged.values.filter { $0.at > instant }.count }

    /// The first answer after `instant`, in seconds after it; nil when none came.
    public func firstAcknowledgement(after instant: Date) -> Double? {
        acknowledged.values.map(\.at).filter { $0 > instant }.min().map { $0.timeIntervalSince(instant) }
    }

    /// The longest time, in seconds, in which no append was answered, from `instant` to the
    /// last answer: how long writes stopped.
    public func longestPause(after instant: Date) -> Double {
        var previous = instant, longest = 0.0
        for at in acknowledged.values.map(\.at).filter({ $0 > instant }).sorted() {
            longest = max(longest, at.timeIntervalSince(previous))
            previous = at
        }
        return longest
    }

    /// The longest one append waited for its answer, retries included, in seconds.
    public var longestWait: Double { acknowledged.values.map(\.wait).max() ?? 0 }
}
