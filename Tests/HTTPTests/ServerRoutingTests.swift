import Foundation
import Testing
import TestSupport
@testable import HTTP

@Suite("Server: routing and errors", .bounded)
struct ServerRoutingTests {
    struct Echo: Codable, Equatable {
        var id: String
        var tail: String?
        var query: [String]
    }

    static func makeServer() throws -> TestServer {
        try TestServer { router in
            router.add("GET", "/v1/projects/{id}/journal") { request in
                .json(Echo(id: request.pathParameters["id"] ?? "", tail: nil, query: request.queryItems.map { "\($0.name)=\($0.value)" }))
            }
            router.add("GET", "/v1/projects/current/journal") { _ in .text("literal") }
            router.add("POST", "/v1/projects/{id}/journal") { request in
                .json(Echo(id: request.pathParameters["id"] ?? "", tail: "posted", query: []), status: 201)
            }
            router.add("GET", "/boom") { _ in
                struct Secret: Error { var password = "hunter2" }
                throw Secret()
            }
            router.add("GET", "/problem") { _ in
                throw Problem(status: 409, code: "conflict_here", detail: "It conflicts.")
            }
            router.add("GET", "/inject") { _ in
                var response = HTTPResponse.text("ok")
                response.headers.add(name: "X-Evil", value: "a\r\nSet-Cookie: stolen=1")
                response.headers.add(name: "X-Fine", value: "yes")
                return response
            }
            router.add("GET", "/custom") { _ in
                throw HTTPError(response: .json(["error": "nope", "code": "custom"], status: 401))
            }
        }
    }

    @Test func routesWithPathParametersAndQuery() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let client = try server.client()
        let response = try client.send(method: "GET", path: "/v1/projects/pr%2Fj%20x/journal?limit=10&cursor=a%26b&q=a+b")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.headers["Content-Length"] == String(response.body.count))
        let echo = try JSONDecoder().decode(Echo.self, from: Data(response.body))
        #expect(echo == Echo(id: "pr/j x", tail: nil, query: ["limit=10", "cursor=a&b", "q=a b"]))

        let literal = try client.send(method: "GET", path: "/v1/projects/current/journal")
        #expect(String(decoding: literal.body, as: UTF8.self) == "literal")
        let posted = try client.send(method: "POST", path: "/v1/projects/p1/journal", body: Array("{}".utf8))
        #expect(posted.status == 201)
    }

    @Test func unknownPathIs404Problem() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let response = try server.client().send(method: "GET", path: "/v1/nothing?secret=1")
        #expect(response.status == 404)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let body = try #require(jsonObject(response.body))
        #expect(body["code"] as? String == "not_found")
        #expect(body["status"] as? Int == 404)
        #expect(body["type"] as? String == "/problems/not_found")
        #expect((body["detail"] as? String)?.contains("GET /v1/nothing") == true)
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let response = try server.client().send(method: "DELETE", path: "/v1/projects/p1/journal")
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "GET, HEAD, POST")
        #expect(jsonObject(response.body)?["code"] as? String == "method_not_allowed")
    }

    @Test func headIsServedByGetWithoutBody() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let client = try server.client()
        let get = try client.send(method: "GET", path: "/v1/projects/p1/journal")
        let head = try client.send(method: "HEAD", path: "/v1/projects/p1/journal")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["Content-Length"] == String(get.body.count))
        // The connection is still usable: no stray body bytes were sent after the HEAD.
        #expect(try client.send(method: "GET", path: "/v1/projects/p1/journal").status == 200)
    }

    @Test func genericErrorIs500WithoutLeaking() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let response = try server.client().send(method: "GET", path: "/boom")
        #expect(response.status == 500)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(!text.contains("hunter2"))
        #expect(!text.contains("Secret"))
        #expect(jsonObject(response.body)?["code"] as? String == "internal_error")
        let failures = server.logLines("handler failed")
        #expect(failures.count == 1)
        #expect((failures.first?["error"] as? String)?.contains("hunter2") == true)
    }

    @Test func thrownProblemAndHTTPErrorAreSent() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let client = try server.client()
        let problem = try client.send(method: "GET", path: "/problem")
        #expect(problem.status == 409)
        #expect(jsonObject(problem.body)?["code"] as? String == "conflict_here")
        let custom = try client.send(method: "GET", path: "/custom")
        #expect(custom.status == 401)
        #expect(custom.headers["Content-Type"] == "application/json")
        #expect(jsonObject(custom.body)?["error"] as? String == "nope")
    }

    @Test func headerValuesWithLineBreaksAreDropped() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let response = try server.client().send(method: "GET", path: "/inject")
        #expect(response.status == 200)
        #expect(response.headers["Set-Cookie"] == nil)
        #expect(response.headers["X-Evil"] == nil)
        #expect(response.headers["X-Fine"] == "yes")
        #expect(server.logLines("response header refused").first?["header"] as? String == "X-Evil")
    }
}
