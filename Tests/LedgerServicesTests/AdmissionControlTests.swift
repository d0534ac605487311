import LedgerServices
import Synchronization
import Testing
import TestSupport

@Suite("Admission bounded by lag: the controller against a model", .bounded)
struct AdmissionControlTests {
    /// The rule as a reader of docs/architecture.md would write it, apart from the code:
    /// within the bound and nobody waiting, a write goes in; otherwise it queues; each fold
    /// of N events lets the queue's oldest writes in while N·bound/lag covers them (all of
    /// them once the lag is back within the bound); a cancelled write still queued is refused.
    struct Model {
        var queue: [(ticket: Int, events: Int)] = []
        var credit = 0
        var admitted: [Int] = []
        var refused: [Int] = []

        mutating func request(_ ticket: Int, events: Int, within: Bool) {
            if within && queue.isEmpty { admitted.append(ticket) } else { queue.append((ticket, events)) }
        }

        mutating func fold(_ n: Int, within: Bool) {
            guard !queue.isEmpty, n > 0 else { return }
            // Past the bound (a lag of 500 ms against 100 here), a fold lets in bound/lag of its events.
            credit += within ? n : Int(Double(n) * (0.1 / 0.5))
            while let first = queue.first, within || credit >= first.events {
                credit = max(0, credit - first.events)
                admitted.append(first.ticket)
                queue.removeFirst()
            }
            if queue.isEmpty { credit = 0 }
        }

        mutating func cancel(_ ticket: Int) {
            guard let i = queue.firstIndex(where: { $0.ticket == ticket }) else { return }
            queue.remove(at: i)
            refused.append(ticket)
            if queue.isEmpty { credit = 0 }
        }
    }

    @Test("random requests, folds, lag changes and expiries: the same writes are admitted, in the same order, and refused, as the model says",
          arguments: 0..<200)
    func againstTheModel(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 17)
        let within = Mutex(true)
        let control = AdmissionControl(settings: .init(bound: .milliseconds(100), wait: .seconds(1))) { _ in
            within.withLock { $0 } ? .milliseconds(50) : .milliseconds(500)
        }
        var model = Model()
        let admitted = Mutex<[Int]>([])
        var tickets: [Int: UInt64] = [:]
        var parks = 0
        var parkedSteps = Set<Int>()
        for step in 0..<300 {
            switch random.int(0...9) {
            case 0...3:
                let events = random.int(1...1_000)
                let isWithin = within.withLock { $0 }
                model.request(step, events: events, within: isWithin)
                if control.admitNow(events: events, projection: "billing") {
                    admitted.withLock { $0.append(step) }
                } else {
                    tickets[step] = control.park(events: events, projection: "billing") { admitted.withLock { $0.append(step) } }
                    parks += 1
                    parkedSteps.insert(step)
                }
            case 4...6:
                let n = random.int(0...1_500)
                model.fold(n, within: within.withLock { $0 })
                control.folded(Int64(n), projection: "billing")
            case 7...8:
                within.withLock { $0 = random.chance(0.5) }
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

    @Test("with no bound, every write is admitted at once")
    func off() {
        let control = AdmissionControl(settings: .init(bound: nil)) { _ in .seconds(60) }
        #expect(control.admitNow(events: 1_000, projection: "billing"))
        #expect(control.counts.admitted.events == 1_000)
    }

    @Test("a write parked while another projection is behind is not held by it")
    func perProjection() {
        let behind = Mutex<Set<String>>(["billing"])
        let control = AdmissionControl(settings: .init()) { behind.withLock { $0 }.contains($0) ? .seconds(5) : .zero }
        #expect(!control.admitNow(events: 10, projection: "billing"))
        #expect(control.admitNow(events: 10, projection: "catalogue"))
    }
}
