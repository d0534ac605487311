import Foundation
import Testing
import TestSupport
@testable import HTTP

@Suite("Decoding JSON bodies", .bounded)
struct DecodeJSONTests {
    struct Usage: Decodable {
        struct Item: Decodable {
            var meter: String
            var quantity: Int
        }
        var batch: String
        var items: [Item]
    }

    func problem(_ body: String, contentType: String? = "application/json") -> Problem? {
        var headers = HTTPHeaders()
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        let request = HTTPRequest(method: "POST", path: "/", headers: headers, body: Array(body.utf8))
        do {
            _ = try request.decodeJSON(Usage.self)
            return nil
        } catch let problem as Problem {
            return problem
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func decodesAWellFormedBody() throws {
        let request = HTTPRequest(
            method: "POST", path: "/", headers: ["Content-Type": "application/json; charset=utf-8"],
            body: Array(#"{"batch":"b1","items":[{"meter":"m","quantity":3}]}"#.utf8))
        let usage = try request.decodeJSON(Usage.self)
        #expect(usage.batch == "b1")
        #expect(usage.items.first?.quantity == 3)
        #expect(problem(#"{"batch":"b","items":[]}"#, contentType: nil) == nil)
        #expect(problem(#"{"batch":"b","items":[]}"#, contentType: "application/merge-patch+json") == nil)
    }

    @Test func malformedJSONSaysWhere() throws {
        let found = try #require(problem("{\"batch\": \"b1\",\n  \"items\": [oops]}"))
        #expect(found.status == 400)
        #expect(found.code == "malformed_json")
        #expect(found.detail.contains("line 2, column 13"), "\(found.detail)")
        #expect(found.detail.contains("'o'"))
        #expect(try #require(problem("")).code == "malformed_json")
        #expect(try #require(problem(#"{"batch": "b1""#)).detail.contains("end of the input"))
        #expect(try #require(problem(#"{"batch":"b","items":[]} trailing"#)).detail.contains("after the JSON value"))
    }

    @Test func wrongShapeNamesTheField() throws {
        let missing = try #require(problem(#"{"items":[]}"#))
        #expect(missing.code == "invalid_body")
        #expect(missing.detail.contains("`batch`"))
        #expect(missing.detail.contains("missing"))
        let nested = try #require(problem(#"{"batch":"b","items":[{"meter":"m","quantity":1},{"meter":"m","quantity":"2"}]}"#))
        #expect(nested.code == "invalid_body")
        #expect(nested.detail.contains("`items[1].quantity`"), "\(nested.detail)")
        #expect(nested.detail.contains("an integer"))
        let null = try #require(problem(#"{"batch":null,"items":[]}"#))
        #expect(null.detail.contains("`batch`") && null.detail.contains("null"))
        let root = try #require(problem("[1,2]"))
        #expect(root.detail.hasPrefix("The body is not what is expected"), "\(root.detail)")
    }

    @Test func otherMediaTypesAre415() throws {
        let found = try #require(problem(#"{"batch":"b","items":[]}"#, contentType: "text/plain"))
        #expect(found.status == 415)
        #expect(found.code == "unsupported_media_type")
    }

    @Test func problemsThrownWhileDecodingPassThrough() throws {
        struct Strict: Decodable {
            init(from decoder: any Decoder) throws { throw Problem(status: 422, code: "amount_negative", detail: "No.") }
        }
        let request = HTTPRequest(method: "POST", path: "/", body: Array("{}".utf8))
        #expect(throws: Problem(status: 422, code: "amount_negative", detail: "No.")) { try request.decodeJSON(Strict.self) }
    }
}
