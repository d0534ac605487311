import Dispatch
import Foundation
import HTTP
import Observability
import Synchronization
import WebhookSigning

/// A receiver on loopback that answers with the statuses it is given, in turn (then 200),
/// and keeps what it received. A status of 0 hangs until `release()` (or 30 s).
public final class ScriptedReceiver: Sendable {
    public struct Received: Sendable {
        public var sequence: Int64
        public var messageID: String
        public var signature: String?
        public var body: [UInt8]
    }

    public let server: HTTPServer
    private let box = Box()
    final class Box: Sendable {
        let statuses = Mutex<[Int]>([])
        /// The body of a 200 answer.
        let body = Mutex<[UInt8]>(Array("ok".utf8))
        let received = Mutex<[Received]>([])
        let held = DispatchSemaphore(value: 0)
    }

    public init() throws {
        var router = Router()
        let box = self.box
        router.add("POST", "/hook") { request in
            box.received.withLock {
                $0.append(Received(sequence: Int64(request.headers["Ledger-Sequence"] ?? "") ?? -1,
                                   messageID: request.headers["Ledger-Message-Id"] ?? "", signature: request.headers[WebhookSignature.header],
                                   body: request.body))
            }
            let status = box.statuses.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
            if status == 0 {
                _ = box.held.wait(timeout: .now() + 30)
                return .text("late", status: 200)
            }
            guard status == 200 else { return .text("not now", status: status) }
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain; charset=utf-8"], body: box.body.withLock { $0 })
        }
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 4), router: router,
                            logger: Logger(minimumLevel: .error))
        try server.start()
    }

    public var url: String { "http://127.0.0.1:\(server.port)/hook" }
    public func answer(_ statuses: [Int]) { box.statuses.withLock { $0 += statuses } }
    /// What a 200 answer says from now on (`ok` until then).
    public func answerBody(_ body: [UInt8]) { box.body.withLock { $0 = body } }
    public var received: [Received] { box.received.withLock { $0 } }
    public func release() { box.held.signal() }
    public func stop() {
        release()
        server.shutdown(gracePeriod: 1)
    }
}
