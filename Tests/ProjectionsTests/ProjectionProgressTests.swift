import Dispatch
import EventStore
import Foundation
import Observability
import Postgres
@testable import ProjectionEngine
@testable import Projections
import Synchronization
import TestSupport
import Testing

@Suite("Waiting for a projection", .bounded)
struct ProjectionProgressTests {
    @Test("a blocking wait returns when the projector passes the position, woken by its notification")
    func wakesOnProgress() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        let catalogue = LogIndexProjection()
        let pool = PostgresPool(conninfo: db.writerURL, maximumConnections: 2)
        // Nothing to wait for yet: the projection does not even exist.
        #expect(try ProjectionWait.until(catalogue, reaches: 1, connections: pool, timeout: 0.3) == false)
        let projector = ProjectorThread(url: db.projectorURL, projections: [catalogue], batchSize: 10, pollInterval: 5)
        defer { projector.stop() }
        for i in 0..<25 { _ = try store.append(AppendRequest(event("s-\(i)"))) }
        #expect(try ProjectionWait.until(catalogue, reaches: 25, connections: pool, timeout: 20))
        // Beyond the head it waits its whole timeout and says so.
        #expect(try ProjectionWait.until(catalogue, reaches: 26, connections: pool, timeout: 0.3) == false)
    }

    @Test("the projector says the rate it folds at with its batches, and the progress hands it to admission for every projection")
    func foldRate() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        let catalogue = LogIndexProjection()
        let progress = ProjectionProgress(conninfo: db.writerURL, projections: [catalogue], logger: Logger(minimumLevel: .error))
        progress.start()
        defer { progress.stop() }
        #expect(try Poll.until { progress.isConnected })
        // Nothing folded yet: no rate.
        #expect(progress.load(of: catalogue.name).foldRate == nil)
        let projector = ProjectorThread(url: db.projectorURL, projections: [catalogue], batchSize: 10, pollInterval: 5)
        defer { projector.stop() }
        // The first batch has no rate to say; those after it say the ones before.
        for i in 0..<25 { _ = try store.append(AppendRequest(event("s-\(i)"))) }
        #expect(try Poll.until(timeout: 20) { progress.load(of: catalogue.name).foldRate != nil })
        let rate = try #require(progress.load(of: catalogue.name).foldRate)
        #expect(rate > 0 && rate.isFinite)
        #expect(progress.load(of: "billing").foldRate == rate)
    }

    @Test("a blocking wait for a projection that stopped on a poison event throws at once, naming the event")
    func stoppedProjection() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        for i in 0..<5 { _ = try store.append(AppendRequest(event("s-\(i)"))) }
        let poison = try store.append(AppendRequest(event("s-x", "poison"))).position
        let projector = ProjectorThread(url: db.projectorURL, projections: [PoisonProjection()], batchSize: 10, pollInterval: 0.2)
        defer { projector.stop() }
        let pool = PostgresPool(conninfo: db.writerURL, maximumConnections: 2)
        // A wait that reached its timeout returns false rather than throwing: the throw is
        // proof the stop was seen before it.
        let stopped = #expect(throws: ProjectionWait.Stopped.self) {
            _ = try ProjectionWait.until(PoisonProjection(), reaches: poison, connections: pool, timeout: 60)
        }
        #expect(stopped?.position == poison)
        #expect(stopped?.error.contains("cannot apply a poison event") == true)
    }
}

@Suite("The rebuild's hand-off queue", .bounded)
struct HandoffQueueTests {
    @Test("whatever the capacity and timing, every element put before the close is taken once, in order, and then nil")
    func orderAndClose() throws {
        try Property.check("handoff queue", count: 200) { generator, seed in
            let capacity = Int.random(in: 1...4, using: &generator)
            let count = Int.random(in: 0...300, using: &generator)
            let queue = HandoffQueue<Int>(capacity: capacity)
            let taken = Mutex<[Int]>([])
            let done = DispatchSemaphore(value: 0)
            let consumer = Thread {
                while let n = queue.take() { taken.withLock { $0.append(n) } }
                done.signal()
            }
            consumer.start()
            for n in 0..<count { #expect(queue.put(n)) }
            queue.close()
            #expect(done.wait(timeout: .now() + 20) == .success, "seed \(seed.hex): the consumer woke up after the close")
            #expect(taken.withLock { $0 } == Array(0..<count), "seed \(seed.hex)")
            #expect(queue.put(-1) == false, "a closed queue takes nothing more")
        }
    }

    @Test("closing wakes a producer waiting for room and a consumer waiting for an element")
    func closeWakesWaiters() throws {
        for capacity in 1...3 {
            let full = HandoffQueue<Int>(capacity: capacity)
            for n in 0..<capacity { #expect(full.put(n)) }
            let refused = DispatchSemaphore(value: 0)
            Thread { if !full.put(99) { refused.signal() } }.start()
            full.close()
            #expect(refused.wait(timeout: .now() + 20) == .success)
            let empty = HandoffQueue<Int>(capacity: capacity)
            let woke = DispatchSemaphore(value: 0)
            for _ in 0..<3 { Thread { if empty.take() == nil { woke.signal() } }.start() }
            empty.close()
            for _ in 0..<3 { #expect(woke.wait(timeout: .now() + 20) == .success, "every waiting consumer wakes") }
        }
    }
}
