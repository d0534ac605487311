import Foundation
import Testing
import TestSupport
@testable import HTTP

@Suite("Server: request ids, logs and metrics", .bounded)
struct ServerObservabilityTests {
    static func makeServer() throws -> TestServer {
        try TestServer { router in
            router.add("GET", "/items/{id}") { request in .json(["id": request.pathParameters["id"] ?? "", "rid": request.requestID]) }
            router.add("POST", "/items") { request in .json(["size": request.body.count], status: 201) }
        }
    }

    @Test func validIncomingRequestIDIsEchoedAndUsed() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let response = try server.client().send(method: "GET", path: "/items/1", headers: [("X-Request-Id", "trace-01:ab.c_d")])
        #expect(response.headers["X-Request-Id"] == "trace-01:ab.c_d")
        #expect(jsonObject(response.body)?["rid"] as? String == "trace-01:ab.c_d")
    }

    @Test(arguments: ["", "has space", String(repeating: "x", count: 129), "semi;colon", "quote\""])
    func invalidOrMissingRequestIDIsReplaced(_ incoming: String) throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let headers = incoming.isEmpty ? [] : [("X-Request-Id", incoming)]
        let response = try server.client().send(method: "GET", path: "/items/1", headers: headers)
        let echoed = try #require(response.headers["X-Request-Id"])
        #expect(echoed != incoming)
        #expect(UUID(uuidString: echoed) != nil)
        // Problems carry the id too.
        let notFound = try server.client().send(method: "GET", path: "/nope")
        #expect(notFound.headers["X-Request-Id"].flatMap { UUID(uuidString: $0) } != nil)
    }

    @Test func exactlyOneLogLinePerRequestWithTheRightFields() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let client = try server.client()
        _ = try client.send(
            method: "GET", path: "/items/42?token=secret-query",
            headers: [("X-Request-Id", "req-1"), ("Authorization", "Bearer sk_secret"), ("Cookie", "session=cookie-secret")])
        _ = try client.send(method: "POST", path: "/items", headers: [("X-Request-Id", "req-2")], body: Array("hello".utf8))
        _ = try client.send(method: "GET", path: "/missing/x", headers: [("X-Request-Id", "req-3")])
        let lines = server.logLines(atLeast: 3)
        #expect(lines.count == 3)
        let byID = Dictionary(uniqueKeysWithValues: lines.map { ($0["request_id"] as? String ?? "", $0) })
        let first = try #require(byID["req-1"])
        #expect(first["level"] as? String == "info")
        #expect(first["method"] as? String == "GET")
        #expect(first["path"] as? String == "/items/42")
        #expect(first["route"] as? String == "/items/{id}")
        #expect(first["status"] as? Int == 200)
        #expect(first["bytes_in"] as? Int == 0)
        #expect((first["bytes_out"] as? Int ?? 0) > 0)
        #expect(first["remote"] as? String == "127.0.0.1")
        #expect((first["duration_ms"] as? Double ?? -1) >= 0)
        let second = try #require(byID["req-2"])
        #expect(second["status"] as? Int == 201)
        #expect(second["bytes_in"] as? Int == 5)
        let third = try #require(byID["req-3"])
        #expect(third["route"] as? String == "unmatched")
        #expect(third["status"] as? Int == 404)
        let everything = server.sink.lines.joined(separator: "\n")
        for secret in ["secret-query", "sk_secret", "cookie-secret", "hello"] {
            #expect(!everything.contains(secret), "\(secret) leaked into the log")
        }
    }

    @Test func requestsRefusedEarlyAreLoggedOnce() throws {
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2, maxBodyBytes: 10, connectionTimeoutSeconds: 1)
        let server = try TestServer(configuration: configuration) { router in
            router.add("POST", "/items") { _ in .text("no") }
        }
        defer { server.stop() }
        let tooLarge = try server.client().send(method: "POST", path: "/items", headers: [("X-Request-Id", "big")], body: Array(repeating: 65, count: 11))
        #expect(tooLarge.status == 413)
        let raw = try server.raw()
        try raw.write("POST /items HTTP/1.1\r\nHost: t\r\nX-Request-Id: slow\r\nContent-Length: 5\r\n\r\nab")
        #expect(parseRawResponse(raw.readToEnd())?.status == 408)
        let lines = server.logLines(atLeast: 2)
        #expect(lines.count == 2)
        let statuses = Dictionary(uniqueKeysWithValues: lines.map { ($0["request_id"] as? String ?? "", $0["status"] as? Int ?? 0) })
        #expect(statuses == ["big": 413, "slow": 408])
        #expect(lines.first { $0["request_id"] as? String == "big" }?["route"] as? String == "/items")
        #expect(lines.first { $0["request_id"] as? String == "slow" }?["termination"] as? String == "timeout")
    }

    @Test func metricsCountRequestsByRouteAndStatus() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let client = try server.client()
        for id in ["a", "b"] { _ = try client.send(method: "GET", path: "/items/\(id)") }
        _ = try client.send(method: "GET", path: "/random/\(UUID().uuidString)")
        _ = try client.send(method: "BREW", path: "/random/\(UUID().uuidString)")
        _ = server.logLines(atLeast: 4)
        let lines = server.metrics.render().split(separator: "\n").map(String.init)
        #expect(lines.contains(#"http_requests_total{method="GET",route="/items/{id}",status="200"} 2"#))
        #expect(lines.contains(#"http_requests_total{method="GET",route="unmatched",status="404"} 1"#))
        // An unknown method is a 501 before any route is looked up.
        #expect(lines.contains(#"http_requests_total{method="OTHER",route="unmatched",status="501"} 1"#))
        #expect(lines.contains(#"http_request_duration_seconds_count{route="/items/{id}"} 2"#))
        #expect(lines.contains(#"http_request_duration_seconds_bucket{route="/items/{id}",le="+Inf"} 2"#))
        #expect(lines.contains("http_requests_in_flight 0"))
        #expect(lines.contains("# TYPE http_request_duration_seconds histogram"))
        // Cumulative: bucket counts never decrease along a series.
        let buckets = lines.filter { $0.hasPrefix(#"http_request_duration_seconds_bucket{route="/items/{id}""#) }
            .compactMap { Int($0.split(separator: " ").last!) }
        #expect(buckets.count == 15)
        #expect(buckets == buckets.sorted())
        #expect(!lines.contains { $0.contains("/random/") })
    }
}
