import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTP
@testable import BenchHTTP

/// No request holds a thread while it waits, no client can slow another down, and health
/// answers at once whatever the clients do.
@Suite("Server: dispatch, waits and fairness", .bounded)
struct DispatchTests {
    /// A gate that deferred handlers wait on, opened by the test.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [@Sendable () -> Void])>((false, []))
        func wait(_ wake: @escaping @Sendable () -> Void) -> HTTPDeferral.Cancel {
            let now = state.withLock { s -> Bool in
                if s.open { return true }
                s.waiters.append(wake)
                return false
            }
            if now { wake() }
            return {}
        }
        func open() {
            let waiters = state.withLock { s -> [@Sendable () -> Void] in
                s.open = true
                defer { s.waiters = [] }
                return s.waiters
            }
            for wake in waiters { wake() }
        }
    }

    static func server(workers: Int = 2, perClient: Int = 64, queue: Int = 1024, gate: Gate,
                       blocking: DispatchSemaphore? = nil, blockStarted: DispatchSemaphore? = nil) throws -> TestServer {
        // Two keys the server knows as verified (as the API's `VerifiedKeys` would); any
        // other credential proves nobody.
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: workers, maxQueuedRequests: queue,
                                                    maxRequestsPerClient: perClient, connectionTimeoutSeconds: 30, maxConnections: 1024,
                                                    // Every client here is 127.0.0.1: the share per address is
                                                    // AddressLimitTests' subject, not these tests'.
                                                    maxConnectionsPerAddress: 1024,
                                                    admissionClient: { headers in
                                                        ["Bearer sk_one", "Bearer sk_two"].contains(headers["authorization"] ?? "") ? headers["authorization"] : nil
                                                    })
        return try TestServer(configuration: configuration) { router in
            router.add("GET", "/healthz", inline: true) { _ in .text("ok") }
            router.add("GET", "/fast") { _ in .text("fast") }
            router.add("GET", "/wait") { request in
                let seconds = Double(request.query("timeout") ?? "30") ?? 30
                throw HTTPDeferral(timeout: .milliseconds(Int64(seconds * 1000)), start: { wake in gate.wait(wake) },
                                   resume: { .text("released") },
                                   expired: { throw Problem(status: 503, code: "projection_behind", detail: "still behind", retryAfter: 1) })
            }
            router.add("GET", "/block") { _ in
                blockStarted?.signal()
                _ = blocking?.wait(timeout: .now() + 20)
                return .text("unblocked")
            }
        }
    }

    /// The statuses of requests running in the background, as they come.
    final class Statuses: Sendable {
        private let values = Mutex<[Int]>([])
        func append(_ status: Int) { values.withLock { $0.append(status) } }
        var all: [Int] { values.withLock { $0 } }
    }

    /// Starts `count` requests on their own threads.
    static func background(_ count: Int, port: Int, path: String, headers: [(String, String)] = []) -> Statuses {
        let statuses = Statuses()
        for _ in 0..<count {
            Thread.detachNewThread {
                let status = (try? HTTPClient(host: "127.0.0.1", port: port, timeout: 40).send(method: "GET", path: path, headers: headers))?.status ?? -1
                statuses.append(status)
            }
        }
        return statuses
    }

    @Test("parked requests hold no thread: with 2 workers, 40 waiting requests leave the server free, and all are answered when released")
    func parkedRequestsHoldNoThread() throws {
        let gate = Gate()
        let server = try Self.server(workers: 2, gate: gate)
        defer { server.stop() }
        let parked = Self.background(40, port: server.port, path: "/wait")
        #expect(Poll.until(timeout: 10) { server.server.inFlight >= 40 })
        let client = try server.client()
        for _ in 0..<20 { #expect(try client.send(method: "GET", path: "/fast").status == 200) }
        gate.open()
        #expect(Poll.until(timeout: 10) { parked.all.count == 40 })
        #expect(parked.all.allSatisfy { $0 == 200 })
    }

    @Test("a wait ends at its deadline with the handler's own answer, on time")
    func waitExpires() throws {
        let server = try Self.server(gate: Gate())
        defer { server.stop() }
        let started = Date()
        let response = try server.client().send(method: "GET", path: "/wait?timeout=0.5")
        let waited = Date().timeIntervalSince(started)
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] == "1")
        #expect(jsonObject(response.body)?["code"] as? String == "projection_behind")
        #expect(waited >= 0.45, "ended after \(waited) s, before its deadline")
        let line = try #require(server.logLines().first)
        #expect((line["duration_ms"] as? Double ?? 0) >= 450, "the wait counts in the logged duration")
        #expect((line["waited_ms"] as? Double ?? 0) >= 450)
    }

    @Test("a client past its limit of requests in the server gets 429 with Retry-After; other clients are served")
    func perClientLimit() throws {
        let gate = Gate()
        let server = try Self.server(perClient: 3, gate: gate)
        defer { server.stop() }
        let mine = [("Authorization", "Bearer sk_one")]
        _ = Self.background(3, port: server.port, path: "/wait", headers: mine)
        #expect(Poll.until(timeout: 10) { server.server.inFlight >= 3 })
        let over = try server.client().send(method: "GET", path: "/fast", headers: mine)
        #expect(over.status == 429)
        #expect(over.headers["Retry-After"] == "1")
        #expect(try server.client().send(method: "GET", path: "/fast", headers: [("Authorization", "Bearer sk_two")]).status == 200)
        gate.open()
    }

    @Test("a credential nobody verified names nobody: one invented per request shares its address's limit")
    func inventedCredentialsShareTheAddress() throws {
        let gate = Gate()
        let server = try Self.server(perClient: 3, gate: gate)
        defer { server.stop() }
        for i in 0..<3 {
            _ = Self.background(1, port: server.port, path: "/wait", headers: [("Authorization", "Bearer sk_invented_\(i)")])
        }
        #expect(Poll.until(timeout: 10) { server.server.inFlight >= 3 })
        let over = try server.client().send(method: "GET", path: "/fast", headers: [("Authorization", "Bearer sk_invented_9")])
        #expect(over.status == 429)
        #expect(try server.client().send(method: "GET", path: "/fast", headers: [("Authorization", "Bearer sk_one")]).status == 200)
        gate.open()
    }

    @Test("a full queue is a 503 overloaded at once, not a wait")
    func queueFull() throws {
        let blocking = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let server = try Self.server(workers: 1, queue: 2, gate: Gate(), blocking: blocking, blockStarted: started)
        defer { server.stop() }
        // One runs (the only worker has taken it), then two queue: sent only once the first
        // runs, or on a busy machine the worker may not have taken it yet and the third finds
        // the queue full.
        let running = Self.background(1, port: server.port, path: "/block")
        #expect(started.wait(timeout: .now() + 10) == .success)
        let queued = Self.background(2, port: server.port, path: "/block")
        #expect(Poll.until(timeout: 10) { server.server.inFlight >= 3 })
        let response = try server.client().send(method: "GET", path: "/fast")
        #expect(response.status == 503)
        #expect(jsonObject(response.body)?["code"] as? String == "overloaded")
        for _ in 0..<3 { blocking.signal() }
        #expect(Poll.until(timeout: 10) { running.all.count == 1 && queued.all.count == 2 })
        #expect(running.all + queued.all == [200, 200, 200])
    }

    @Test("a handler that blocks delays no other connection: others are served by the other workers")
    func blockingHandlerDelaysNoOne() throws {
        let blocking = DispatchSemaphore(value: 0)
        let server = try Self.server(workers: 4, gate: Gate(), blocking: blocking)
        defer { server.stop() }
        let blocked = Self.background(2, port: server.port, path: "/block")
        #expect(Poll.until(timeout: 10) { server.server.inFlight >= 2 })
        let client = try server.client()
        for _ in 0..<20 { #expect(try client.send(method: "GET", path: "/fast").status == 200) }
        blocking.signal()
        blocking.signal()
        #expect(Poll.until(timeout: 10) { blocked.all.count == 2 })
    }

    @Test("/healthz answers at once under slow and pinned clients: slow heads, parked waits, blocked workers")
    func healthUnderAbuse() throws {
        let gate = Gate()
        let blocking = DispatchSemaphore(value: 0)
        let server = try Self.server(workers: 2, gate: gate, blocking: blocking)
        defer {
            gate.open()
            for _ in 0..<4 { blocking.signal() }
            server.stop()
        }
        let slow = try (0..<50).map { _ -> RawConnection in
            let raw = try server.raw(timeout: 30)
            try raw.write("GET /hello HTTP/1.1\r\nHost: t\r\nX-Slow: ")
            return raw
        }
        _ = Self.background(60, port: server.port, path: "/wait")
        _ = Self.background(4, port: server.port, path: "/block")   // both workers pinned, two queued
        #expect(Poll.until(timeout: 10) { server.server.inFlight >= 60 })
        // Not a speed (benchmarks measure those): what makes it so. /healthz is answered on
        // the network thread, so it is never queued behind the pinned workers, the parked
        // waits or the trickling heads: its log lines show no wait at all.
        for _ in 0..<30 {
            let response = try HTTPClient(host: "127.0.0.1", port: server.port, timeout: 30).send(method: "GET", path: "/healthz")
            #expect(response.status == 200)
        }
        let health = server.logLines(atLeast: 30).filter { $0["route"] as? String == "/healthz" }
        #expect(health.count >= 30 && health.allSatisfy { $0["waited_ms"] == nil }, "\(health.prefix(3))")
        withExtendedLifetime(slow) {}
    }
}
