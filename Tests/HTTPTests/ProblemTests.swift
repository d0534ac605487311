import Foundation
import Testing
import TestSupport
@testable import HTTP

@Suite("Problem and responses", .bounded)
struct ProblemTests {
    @Test func problemEncodesRFC9457MembersAndOmitsNilErrors() throws {
        let response = HTTPResponse.problem(Problem(status: 409, code: "version_conflict", detail: "Stale."))
        #expect(response.status == 409)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"code":"version_conflict","detail":"Stale.","status":409,"title":"Conflict","type":"/problems/version_conflict"}"#)
        let withErrors = Problem(status: 400, code: "invalid_body", title: "Bad input", detail: "Two.", errors: ["a", "b"])
        let object = try #require(jsonObject(HTTPResponse.problem(withErrors).body))
        #expect(object["errors"] as? [String] == ["a", "b"])
        #expect(object["title"] as? String == "Bad input")
    }

    @Test func jsonResponsesSortKeysAndKeepSlashes() {
        let response = HTTPResponse.json(["b": "x/y", "a": "1"], status: 201, headers: ["Cache-Control": "no-store"])
        #expect(response.status == 201)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"a":"1","b":"x/y"}"#)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.headers["Cache-Control"] == "no-store")
    }

    @Test func unencodableValuesBecome500() {
        let response = HTTPResponse.json(["x": Double.nan])
        #expect(response.status == 500)
        #expect(jsonObject(response.body)?["code"] as? String == "internal_error")
    }

    @Test func textResponses() {
        let response = HTTPResponse.text("hi", status: 202)
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(response.body == Array("hi".utf8))
    }

    @Test func requestIDsAreValidatedByTheirCharacters() {
        #expect(RequestID.isValid("abc-DEF_1.2:3"))
        #expect(!RequestID.isValid(""))
        #expect(!RequestID.isValid(String(repeating: "a", count: 129)))
        #expect(RequestID.isValid(String(repeating: "a", count: 128)))
        #expect(!RequestID.isValid("has space"))
        #expect(!RequestID.isValid("new\nline"))
    }

    @Test func generatedRequestIDsAreDistinctLowerCaseVersion4UUIDs() {
        let ids = (0..<2000).map { _ in RequestID.generate() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let parsed = UUID(uuidString: id)
            #expect(parsed != nil && id == parsed!.uuidString.lowercased(), "\(id)")
            #expect(RequestID.isValid(id))
            let bytes = Array(id.utf8)
            #expect(bytes[14] == UInt8(ascii: "4"), "version nibble of \(id)")
            #expect([UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(bytes[19]), "variant of \(id)")
        }
    }
}
