import HTTP
import Observability
import Outbound
import Testing
import TestSupport

@Suite("Outbound keeps an answer only when the request asks", .bounded)
struct OutboundKeptAnswerTests {
    @Test("keepsAnswer: the body and Retry-After come back; otherwise only the digest and length")
    func keptOnlyWhenAsked() throws {
        var router = Router()
        router.add("GET", "/limited") { _ in
            HTTPResponse(status: 429, headers: ["Retry-After": "17", "Content-Type": "application/json"],
                         body: Array(#"{"errorCode":4290000}"#.utf8))
        }
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2), router: router,
                                logger: Logger(minimumLevel: .error))
        try server.start()
        defer { server.shutdown(gracePeriod: 1) }
        let client = OutboundClient(policy: .development)
        defer { client.close() }
        var request = OutboundRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/limited")
        let plain = try client.send(request)
        #expect(plain.status == 429 && plain.bodyBytes == 21 && plain.body == nil && plain.retryAfter == nil)
        request.keepsAnswer = true
        let kept = try client.send(request)
        #expect(kept.status == 429 && kept.body == Array(#"{"errorCode":4290000}"#.utf8) && kept.retryAfter == "17")
        #expect(kept.bodySHA256 == plain.bodySHA256)
    }
}
