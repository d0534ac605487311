import Foundation
import LedgerJSON
import Testing
import TestSupport
@testable import HTTP

@Suite("Router", .bounded)
struct RouterTests {
    static func label(_ name: String) -> HTTPHandler {
        { request in .text(name + (request.route.map { " " + $0 } ?? "")) }
    }

    static func body(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func literalSegmentsBeatParameters() {
        var router = Router()
        router.add("GET", "/v1/keys/{id}", Self.label("param"))
        router.add("GET", "/v1/keys/current", Self.label("literal"))
        router.add("GET", "/v1/{a}/x", Self.label("late-literal"))
        router.add("GET", "/{a}/{b}/x", Self.label("all-params"))
        #expect(Self.body(router.handle(HTTPRequest(method: "GET", path: "/v1/keys/current"))) == "literal /v1/keys/current")
        #expect(Self.body(router.handle(HTTPRequest(method: "GET", path: "/v1/keys/k1"))) == "param /v1/keys/{id}")
        #expect(Self.body(router.handle(HTTPRequest(method: "GET", path: "/v1/q/x"))) == "late-literal /v1/{a}/x")
        #expect(Self.body(router.handle(HTTPRequest(method: "GET", path: "/v2/q/x"))) == "all-params /{a}/{b}/x")
    }

    @Test func segmentCountMustMatchExactly() {
        var router = Router()
        router.add("GET", "/v1/items/{id}", Self.label("item"))
        for path in ["/v1/items", "/v1/items/", "/v1/items/a/b", "/v1/items/a/", "/"] {
            #expect(router.handle(HTTPRequest(method: "GET", path: path)).status == 404, "\(path)")
        }
        #expect(router.handle(HTTPRequest(method: "GET", path: "/v1/items/a")).status == 200)
    }

    @Test func pathParametersAreFilled() throws {
        var router = Router()
        router.add("GET", "/orgs/{org}/projects/{project}") { request in .json(request.pathParameters) }
        let response = router.handle(HTTPRequest(method: "GET", path: "/orgs/o1/projects/p%202"))
        #expect(try JSONDecoder().decode([String: String].self, from: Data(response.body)) == ["org": "o1", "project": "p%202"])
    }

    @Test func methodMismatchIs405WithAllowAndTheMatchingMethodIsPreferred() throws {
        var router = Router()
        router.add("POST", "/things/search", Self.label("search"))
        router.add("GET", "/things/{id}", Self.label("get"))
        router.add("DELETE", "/things/{id}", Self.label("delete"))
        // A literal route that does not take GET must not hide the parameter route that does.
        #expect(Self.body(router.handle(HTTPRequest(method: "GET", path: "/things/search"))) == "get /things/{id}")
        let response = router.handle(HTTPRequest(method: "PUT", path: "/things/search"))
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "DELETE, GET, HEAD, POST")
        let problem = try JSONDecoder().decode(Problem.self, from: Data(response.body))
        #expect(problem.code == "method_not_allowed")
        #expect(problem.detail.contains("PUT"))
    }

    @Test func headUsesGetAndDropsTheBody() {
        var router = Router()
        router.add("GET", "/x", Self.label("get"))
        let response = router.handle(HTTPRequest(method: "HEAD", path: "/x"))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(router.respond(to: HTTPRequest(method: "HEAD", path: "/x")).response.body.count == 6)
    }

    @Test func notFoundNamesMethodAndPath() throws {
        let response = Router().handle(HTTPRequest(method: "PATCH", path: "/nowhere"))
        #expect(response.status == 404)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let problem = try JSONDecoder().decode(Problem.self, from: Data(response.body))
        #expect(problem == Problem(status: 404, code: "not_found", detail: "No route matches PATCH /nowhere."))
    }

    @Test func errorsBecomeResponses() throws {
        struct Leaky: Error { var secret = "s3cr3t" }
        var router = Router()
        router.add("GET", "/problem") { _ in throw Problem(status: 422, code: "bad_thing", detail: "Bad.") }
        router.add("GET", "/http") { _ in throw HTTPError(response: .text("teapot", status: 418)) }
        router.add("GET", "/leak") { _ in throw Leaky() }
        #expect(router.handle(HTTPRequest(method: "GET", path: "/problem")).status == 422)
        #expect(router.handle(HTTPRequest(method: "GET", path: "/http")).status == 418)
        let outcome = router.respond(to: HTTPRequest(method: "GET", path: "/leak", requestID: "rid-1"))
        #expect(outcome.response.status == 500)
        #expect(outcome.error is Leaky)
        #expect(!Self.body(outcome.response).contains("s3cr3t"))
        #expect(Self.body(outcome.response).contains("rid-1"))
    }

    @Test func openAPIPathsGroupOperationsByPattern() {
        var router = Router()
        router.add("GET", "/v1/a/{id}", operation: ["operationId": "getA"], Self.label("a"))
        router.add("POST", "/v1/a/{id}", operation: ["operationId": "postA"], Self.label("a"))
        router.add("GET", "/internal", Self.label("hidden"))
        #expect(router.openAPIPaths() == [
            "/v1/a/{id}": ["get": ["operationId": "getA"], "post": ["operationId": "postA"]],
        ])
        #expect(router.routes.map { "\($0.method) \($0.pattern)" } == ["GET /v1/a/{id}", "POST /v1/a/{id}", "GET /internal"])
    }
}
