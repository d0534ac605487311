import Foundation
import Testing
import TestSupport
@testable import HTTP

@Suite("Server: JSON bodies", .bounded)
struct ServerBodyTests {
    struct Grant: Codable {
        var payer: String
        var amount: String
        var tags: [String]
    }

    static func makeServer() throws -> TestServer {
        try TestServer { router in
            router.add("POST", "/grants") { request in
                let grant = try request.decodeJSON(Grant.self)
                return .json(grant, status: 201)
            }
        }
    }

    func post(_ server: TestServer, _ body: String, contentType: String = "application/json") throws -> (status: Int, problem: [String: Any]?) {
        let response = try server.client().send(method: "POST", path: "/grants", headers: [("Content-Type", contentType)], body: Array(body.utf8))
        return (response.status, jsonObject(response.body))
    }

    @Test func wellFormedBodyRoundTrips() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let response = try post(server, #"{"payer":"p1","amount":"12.50","tags":["a/b"]}"#)
        #expect(response.status == 201)
        #expect(response.problem?["tags"] as? [String] == ["a/b"])
    }

    @Test func malformedJSONIs400WithPosition() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let response = try post(server, #"{"payer": "p1", "amount": "12.5""#)
        #expect(response.status == 400)
        #expect(response.problem?["code"] as? String == "malformed_json")
        #expect((response.problem?["detail"] as? String)?.contains("line 1, column 33") == true, "\(response.problem ?? [:])")
    }

    @Test func wrongShapeIs400NamingTheField() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let response = try post(server, #"{"payer":"p1","amount":"1","tags":["ok", 7]}"#)
        #expect(response.status == 400)
        #expect(response.problem?["code"] as? String == "invalid_body")
        let detail = response.problem?["detail"] as? String ?? ""
        #expect(detail.contains("`tags[1]`") && detail.contains("a string"), "\(detail)")
    }

    @Test func otherContentTypeIs415() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let response = try post(server, "payer=p1", contentType: "application/x-www-form-urlencoded")
        #expect(response.status == 415)
        #expect(response.problem?["code"] as? String == "unsupported_media_type")
    }
}
