import LedgerServices
import Observability
import ProjectionEngine
import Synchronization
import Testing
import TestSupport

@Suite("Admission bounded by the time to fold: the controller against a model", .bounded)
struct AdmissionControlTests {
    /// The rule as a reader of docs/architecture.md would write it, apart from the code: a
    /// write goes in when nobody is queued before it, the lag is within the bound, and the
    /// events ahead of it when it lands (the backlog less what the projection folds during
    /// the quickest recent append, plus writes let in and not yet appended) and its
    /// own take no longer than the bound at the fold rate (or nothing is ahead; with no rate
    /// known, only then); otherwise it queues. The length of an append that counts is the shortest
    /// of the last sixteen measured. Queued writes go in, oldest first, when a fold or an
    /// append that ends makes them fit. A cancelled write still queued is refused.
    struct Model {
        var queue: [(ticket: Int, events: Int)] = []
        var inFlight: [(ticket: Int, events: Int)] = []
        var admitted: [Int] = []
        var refused: [Int] = []
        var lagWithin = true
        var backlog = 0
        var rate: Double?
        var appendSeconds: [Double] = []
        let boundSeconds = 0.1

        func fits(_ events: Int) -> Bool {
            guard lagWithin else { return false }
            let foldedWhileAppending = Int((rate ?? 0) * (appendSeconds.min() ?? 0))
            let ahead = max(0, backlog - foldedWhileAppending) + inFlight.reduce(0) { $0 + $1.events }
            guard ahead > 0 else { return true }
            guard let rate else { return false }
            return Double(ahead + events) / rate <= boundSeconds
        }

        mutating func request(_ ticket: Int, events: Int) {
            if queue.isEmpty && fits(events) { letIn(ticket, events) } else { queue.append((ticket, events)) }
        }

        mutating func letIn(_ ticket: Int, _ events: Int) {
            admitted.append(ticket)
            inFlight.append((ticket, events))
        }

        mutating func release() {
            while let first = queue.first, fits(first.events) {
                queue.removeFirst()
                letIn(first.ticket, first.events)
            }
        }

        mutating func cancel(_ ticket: Int) {
            guard let i = queue.firstIndex(where: { $0.ticket == ticket }) else { return }
            queue.remove(at: i)
            refused.append(ticket)
        }
    }

    @Test("random requests, folds, appends, load changes and expiries: the same writes are admitted, in the same order, and refused, as the model says",
          arguments: 0..<200)
    func againstTheModel(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 17)
        let load = Mutex(ProjectionLoad(lag: .milliseconds(20)))
        let control = AdmissionControl(settings: .init(bound: .milliseconds(100), wait: .seconds(1))) { _ in load.withLock { $0 } }
        var model = Model()
        let admitted = Mutex<[Int]>([])
        var tickets: [Int: UInt64] = [:]
        var parks = 0
        var parkedSteps = Set<Int>()
        for step in 0..<300 {
            switch random.int(0...11) {
            case 0...3:
                let events = random.int(1...1_000)
                model.request(step, events: events)
                if control.admitNow(events: events, projection: "billing") {
                    admitted.withLock { $0.append(step) }
                } else {
                    tickets[step] = control.park(events: events, projection: "billing") { admitted.withLock { $0.append(step) } }
                    parks += 1
                    parkedSteps.insert(step)
                }
            case 4...5:
                // The projection folds: less backlog, perhaps another rate.
                let backlog = random.int(0...3_000)
                let rate: Double? = random.chance(0.2) ? nil : Double(random.int(5_000...60_000))
                load.withLock { $0.backlog = Int64(backlog); $0.foldRate = rate }
                model.backlog = backlog
                model.rate = rate
                model.release()
                control.folded(projection: "billing")
            case 6...7:
                // A write let in has been appended (or failed).
                guard !model.inFlight.isEmpty else { continue }
                let done = model.inFlight.remove(at: random.int(0...(model.inFlight.count - 1)))
                let took: Duration? = random.chance(0.3) ? nil : .milliseconds(random.int(0...80))
                if let took { model.appendSeconds = Array((model.appendSeconds + [took.seconds]).suffix(16)) }
                model.release()
                control.appended(events: done.events, projection: "billing", took: took)
            case 8...9:
                let within = random.chance(0.6)
                load.withLock { $0.lag = within ? .milliseconds(50) : .milliseconds(500) }
                model.lagWithin = within
            default:
                guard let (step, ticket) = tickets.randomElement(using: &random) else { continue }
                model.cancel(step)
                control.cancel(ticket)
                tickets[step] = nil
            }
        }
        #expect(admitted.withLock { $0 } == model.admitted, "seed \(seed)")
        #expect(control.parked == model.queue.count, "seed \(seed)")
        let counts = control.counts
        #expect(counts.refused.requests == Int64(model.refused.count), "seed \(seed)")
        #expect(counts.admitted.requests == Int64(model.admitted.count), "seed \(seed)")
        // Every write parked is admitted, refused, or still parked: none is lost or doubled.
        #expect(Int(counts.deferred.requests) == parks, "seed \(seed)")
        #expect(parks == model.admitted.filter { parkedSteps.contains($0) }.count + model.refused.count + model.queue.count, "seed \(seed)")
    }

    @Test("the wait of an admitted write is bounded: the backlog ahead of it and its own events fold within the bound at the measured rate")
    func timeToFold() {
        // 10,000 events/s and a bound of 100 ms: 1,000 events fit.
        let load = Mutex(ProjectionLoad(lag: .milliseconds(10), backlog: 500, foldRate: 10_000))
        let control = AdmissionControl(settings: .init(bound: .milliseconds(100))) { _ in load.withLock { $0 } }
        #expect(control.admitNow(events: 400, projection: "billing"))
        // 500 behind and 400 in flight: 200 more would take 110 ms.
        #expect(!control.admitNow(events: 200, projection: "billing"))
        let woken = Mutex(false)
        _ = control.park(events: 300, projection: "billing") { woken.withLock { $0 = true } }
        // The 400 appended are now behind too: still 120 ms for the parked 300.
        load.withLock { $0.backlog = 900 }
        control.appended(events: 400, projection: "billing")
        #expect(!woken.withLock { $0 })
        // A fold brings it to 90 ms: released.
        load.withLock { $0.backlog = 600 }
        control.folded(projection: "billing")
        #expect(woken.withLock { $0 })
        // A batch larger than a bound's worth goes in alone once nothing is ahead.
        load.withLock { $0.backlog = 0 }
        control.appended(events: 300, projection: "billing")
        #expect(control.admitNow(events: 5_000, projection: "billing"))
    }

    @Test("what the projection folds before a write can land is not ahead of it: the backlog counts less by the quickest recent append at the fold rate")
    func foldedWhileAppending() {
        // 10,000 events/s and a bound of 100 ms.
        let load = Mutex(ProjectionLoad(lag: .milliseconds(10), backlog: 0, foldRate: 10_000))
        let control = AdmissionControl(settings: .init(bound: .milliseconds(100))) { _ in load.withLock { $0 } }
        let unmeasured = AdmissionControl(settings: .init(bound: .milliseconds(100))) { _ in load.withLock { $0 } }
        // A first write goes in with nothing ahead; its append takes 80 ms.
        #expect(control.admitNow(events: 1, projection: "billing"))
        control.appended(events: 1, projection: "billing", took: .milliseconds(80))
        // 1,500 behind. Counted whole, 290 more would take 179 ms; but 800 of them are folded
        // while the write is appended (80 ms at 10,000/s): 700 and 290 fold in 99 ms.
        load.withLock { $0.backlog = 1_500 }
        #expect(!unmeasured.admitNow(events: 290, projection: "billing"))
        #expect(control.admitNow(events: 290, projection: "billing"))
        // Those 290 are in flight: they land with the next write and count whole (109 ms).
        #expect(!control.admitNow(events: 100, projection: "billing"))
        // A slower append since does not count more as folded: the quickest still decides.
        control.appended(events: 290, projection: "billing", took: .milliseconds(300))
        #expect(control.admitNow(events: 290, projection: "billing"))
        #expect(!control.admitNow(events: 100, projection: "billing"))
        // A lag past the bound parks everything, whatever the backlog.
        load.withLock { $0.backlog = 0; $0.lag = .milliseconds(150) }
        control.appended(events: 290, projection: "billing", took: .milliseconds(80))
        #expect(!control.admitNow(events: 1, projection: "billing"))
    }

    @Test("before the projection has folded enough to give a rate, writes go in one at a time: none while anything is ahead")
    func noRateYet() {
        let load = Mutex(ProjectionLoad(lag: .zero, backlog: 0, foldRate: nil))
        let control = AdmissionControl(settings: .init(bound: .milliseconds(50))) { _ in load.withLock { $0 } }
        // Nothing ahead: the first of eight writers goes in; the other seven wait for it,
        // though the lag is zero (it is in flight, not yet in the log).
        #expect(control.admitNow(events: 1_000, projection: "billing"))
        let woken = Mutex(0)
        for _ in 0..<7 { _ = control.park(events: 1_000, projection: "billing") { woken.withLock { $0 += 1 } } }
        #expect(woken.withLock { $0 } == 0)
        // Appended, not yet folded: still ahead.
        load.withLock { $0.backlog = 1_000 }
        control.appended(events: 1_000, projection: "billing", took: .milliseconds(5))
        #expect(woken.withLock { $0 } == 0)
        // Folded: the next one goes in, only it.
        load.withLock { $0.backlog = 0 }
        control.folded(projection: "billing")
        #expect(woken.withLock { $0 } == 1)
        // A rate now known lets in what fits it: at 100,000 events/s, 5,000 in 50 ms, the
        // 1,000 in flight and four more.
        load.withLock { $0.foldRate = 100_000 }
        control.folded(projection: "billing")
        #expect(woken.withLock { $0 } == 5)
    }

    @Test("with no bound, every write is admitted at once")
    func off() {
        let control = AdmissionControl(settings: .init(bound: nil)) { _ in ProjectionLoad(lag: .seconds(60), backlog: 1_000_000, foldRate: 1) }
        #expect(control.admitNow(events: 1_000, projection: "billing"))
        #expect(control.counts.admitted.events == 1_000)
    }

    @Test("a write parked while another projection is behind is not held by it")
    func perProjection() {
        let behind = Mutex<Set<String>>(["billing"])
        let control = AdmissionControl(settings: .init()) { ProjectionLoad(lag: behind.withLock { $0 }.contains($0) ? .seconds(5) : .zero) }
        #expect(!control.admitNow(events: 10, projection: "billing"))
        #expect(control.admitNow(events: 10, projection: "catalogue"))
    }
}
