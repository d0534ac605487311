import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTP
@testable import BenchHTTP

@Suite("Server: concurrency and lifecycle", .bounded)
struct ServerLifecycleTests {
    @Test func manyConcurrentClientsAreAllAnsweredCorrectly() throws {
        let server = try TestServer { router in
            router.add("GET", "/square/{n}") { request in
                let n = Int(request.pathParameters["n"] ?? "") ?? 0
                return .json(["n": n, "square": n * n, "salt": request.query("salt").map { Int($0) ?? -1 } ?? -1])
            }
        }
        defer { server.stop() }
        let threads = 12, perThread = 30
        let failures = Mutex<[String]>([])
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                do {
                    let client = try server.client()
                    for index in 0..<perThread {
                        let n = thread * 1000 + index
                        let response = try client.send(method: "GET", path: "/square/\(n)?salt=\(thread)")
                        let body = jsonObject(response.body)
                        if response.status != 200 || body?["square"] as? Int != n * n || body?["salt"] as? Int != thread {
                            failures.withLock { $0.append("\(n): \(response.status)") }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("thread \(thread): \(error)") }
                }
            }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(failures.withLock { $0 } == [])
        #expect(server.logLines(atLeast: threads * perThread).count == threads * perThread)
        #expect(server.server.inFlight == 0)
    }

    @Test func shutdownLetsInFlightRequestsFinishAndRefusesNewConnections() throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try TestServer { router in
            router.add("GET", "/slow") { _ in
                entered.signal()
                _ = release.wait(timeout: .now() + 10)
                return .text("finished")
            }
        }
        let port = server.port
        let result = Mutex<Result<(status: Int, body: String, connection: String?), any Error>?>(nil)
        let finished = DispatchGroup()
        finished.enter()
        Thread.detachNewThread {
            defer { finished.leave() }
            let outcome = Result { () throws -> (status: Int, body: String, connection: String?) in
                let response = try HTTPClient(host: "127.0.0.1", port: port).send(method: "GET", path: "/slow")
                return (response.status, String(decoding: response.body, as: UTF8.self), response.headers["Connection"])
            }
            result.withLock { $0 = outcome }
        }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        #expect(server.server.inFlight == 1)
        let stopped = DispatchGroup()
        stopped.enter()
        Thread.detachNewThread {
            server.server.shutdown(gracePeriod: 5)
            stopped.leave()
        }
        // While the request is still being handled, new connections are refused.
        #expect(Poll.until(timeout: 5) { (try? HTTPClient(host: "127.0.0.1", port: port, timeout: 1)) == nil })
        #expect(stopped.wait(timeout: .now()) == .timedOut, "shutdown waits for the request in flight")
        release.signal()
        #expect(stopped.wait(timeout: .now() + 5) == .success, "and returns once it is answered")
        #expect(finished.wait(timeout: .now() + 10) == .success)
        let response = try result.withLock { $0 }?.get()
        #expect(response?.status == 200)
        #expect(response?.body == "finished")
        #expect(response?.connection?.lowercased() == "close")
        #expect(throws: HTTPClientError.self) { try HTTPClient(host: "127.0.0.1", port: port, timeout: 2) }
        server.server.shutdown(gracePeriod: 1)  // idempotent
    }

    @Test func gracePeriodBoundsTheWait() throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try TestServer { router in
            router.add("GET", "/stuck") { _ in
                entered.signal()
                _ = release.wait(timeout: .now() + 5)
                return .text("late")
            }
        }
        let port = server.port
        let clientStatus = Mutex<Int?>(nil)
        let clientDone = DispatchGroup()
        clientDone.enter()
        Thread.detachNewThread {
            defer { clientDone.leave() }
            let status = try? HTTPClient(host: "127.0.0.1", port: port).send(method: "GET", path: "/stuck").status
            clientStatus.withLock { $0 = status }
        }
        #expect(entered.wait(timeout: .now() + 10) == .success)
        let stopper = DispatchGroup()
        stopper.enter()
        Thread.detachNewThread {
            server.server.shutdown(gracePeriod: 0.3)
            stopper.leave()
        }
        // Past the grace period the request is answered 503 shutting_down and its
        // connection closed; stopping then waits for the blocked handler thread, whose
        // late answer is dropped.
        #expect(clientDone.wait(timeout: .now() + 10) == .success)
        #expect(clientStatus.withLock { $0 } == 503)
        #expect(Poll.until(timeout: 5) { server.server.inFlight == 0 })
        #expect(stopper.wait(timeout: .now()) == .timedOut)
        release.signal()
        #expect(stopper.wait(timeout: .now() + 10) == .success)
        let line = try #require(server.logLines().first)
        #expect(line["status"] as? Int == 503)
    }

    @Test func startErrorsHaveCodes() throws {
        let server = try TestServer { _ in }
        defer { server.stop() }
        #expect { try server.server.start() } throws: { ($0 as? HTTPServerError)?.code == .alreadyStarted }
        let clash = HTTPServer(
            configuration: HTTPServerConfiguration(port: server.port), router: Router(), logger: .init(sink: server.sink))
        #expect { try clash.start() } throws: { ($0 as? HTTPServerError)?.code == .bindFailed }
        let nonsense = HTTPServer(
            configuration: HTTPServerConfiguration(host: "no.such.host.invalid"), router: Router(), logger: .init(sink: server.sink))
        #expect { try nonsense.start() } throws: { ($0 as? HTTPServerError)?.code == .invalidAddress }
        let badPort = HTTPServer(configuration: HTTPServerConfiguration(port: 70000), router: Router(), logger: .init(sink: server.sink))
        #expect { try badPort.start() } throws: { ($0 as? HTTPServerError)?.code == .invalidConfiguration }
    }
}
