import Foundation
import HTTP
import Observability
import Synchronization

/// A tiny server on loopback for the tests: it keeps every request it receives and
/// answers each with `answer` (a webhook receiver answers 200; an API that misbehaves,
/// whatever the test scripts). Statuses queued with `answer(_:)` are answered first, in turn.
final class LoopbackServer: Sendable {
    struct Received: Sendable {
        var method: String
        var path: String
        var headers: HTTPHeaders
        var body: [UInt8]
        var signature: String? { headers["Stripe-Signature"] }
    }

    private let server: HTTPServer
    private let box = Box()
    final class Box: Sendable {
        let received = Mutex<[Received]>([])
        let statuses = Mutex<[Int]>([])
    }

    init(answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in .text("ok") }) throws {
        var router = Router()
        let box = self.box
        let handler: HTTPHandler = { request in
            box.received.withLock { $0.append(Received(method: request.method, path: request.path, headers: request.headers, body: request.body)) }
            if let status = box.statuses.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return .text("scripted", status: status) }
            return answer(request)
        }
        for method in ["GET", "POST"] {
            router.add(method, "/{a}", handler)
            router.add(method, "/{a}/{b}", handler)
            router.add(method, "/{a}/{b}/{c}", handler)
        }
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2), router: router,
                            logger: Logger(minimumLevel: .error))
        try server.start()
    }

    var baseURL: String { "http://127.0.0.1:\(server.port)" }
    /// Where a webhook endpoint points.
    var webhookURL: String { baseURL + "/stripe/webhooks" }
    var received: [Received] { box.received.withLock { $0 } }
    /// The next requests are answered these statuses, in turn.
    func answer(_ statuses: [Int]) { box.statuses.withLock { $0 += statuses } }
    func stop() { server.shutdown(gracePeriod: 1) }
    deinit { stop() }
}
