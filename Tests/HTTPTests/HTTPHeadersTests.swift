import Testing
import TestSupport
@testable import HTTP

@Suite("HTTPHeaders", .bounded)
struct HTTPHeadersTests {
    @Test func lookupIgnoresCaseAndKeepsOrder() {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers["Set-Cookie"] == "a=1")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers.map(\.name) == ["Content-Type", "Set-Cookie", "set-cookie"])
        #expect(headers["X-Missing"] == nil)
    }

    @Test func replaceOrAddReplacesTheFirstAndDropsTheRest() {
        var headers = HTTPHeaders([("A", "1"), ("B", "2"), ("a", "3")])
        headers.replaceOrAdd(name: "a", value: "9")
        #expect(headers.map(\.name) == ["a", "B"])
        #expect(headers["A"] == "9")
        headers.replaceOrAdd(name: "C", value: "4")
        #expect(headers.map(\.value) == ["9", "2", "4"])
        headers.remove(name: "b")
        #expect(headers.count == 2)
    }

    @Test func namesDifferingOnlyOutsideLettersAreDifferent() {
        // '@' and '`' differ only in the 0x20 bit, like letters; they must not match.
        #expect(!HTTPHeaders.sameName("@", "`"))
        #expect(!HTTPHeaders.sameName("[", "{"))
        #expect(HTTPHeaders.sameName("x-request-id", "X-Request-ID"))
        #expect(!HTTPHeaders.sameName("x-request-id", "x-request-ix"))
    }
}
