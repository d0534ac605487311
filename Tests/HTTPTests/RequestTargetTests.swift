import Foundation
import Testing
import TestSupport
@testable import HTTP

@Suite("Request target decoding", .bounded)
struct RequestTargetTests {
    @Test func splitsPathAndQuery() throws {
        let target = try RequestTarget(parsing: "/v1/a%20b/c?x=1&y=a+b&flag&x=2&&e=")
        #expect(target.path == "/v1/a b/c")
        #expect(target.encodedPath == "/v1/a%20b/c")
        #expect(target.queryItems.map { "\($0.name)=\($0.value)" } == ["x=1", "y=a b", "flag=", "x=2", "e="])
        // Methods are case-sensitive (RFC 9110 §9.1): kept as sent.
        let request = try HTTPRequest(method: "get", target: "/p?x=1&x=2")
        #expect(request.method == "get")
        #expect(request.query("x") == "1")
        #expect(request.query("z") == nil)
    }

    @Test func plusIsLiteralInPaths() throws {
        #expect(try RequestTarget(parsing: "/a+b").path == "/a+b")
    }

    @Test(arguments: ["nopath", "/bad%zz", "/bad%2", "/nul%00", "/x?a=%ff", "/x?%c3%28=1"])
    func rejectsMalformedTargets(_ target: String) {
        #expect(throws: Problem.self) { try RequestTarget(parsing: target) }
        do {
            _ = try RequestTarget(parsing: target)
        } catch {
            #expect(error.code == "invalid_request_target")
            #expect(error.status == 400)
        }
    }

    /// Property: any path segments and query items, percent-encoded the way a client
    /// would, decode back to exactly what was encoded.
    @Test func randomPathsAndQueriesRoundTrip() throws {
        var random = SeededRandom(seed: 0xC0FFEE)
        let alphabet: [Character] = ["a", "Z", "9", " ", "/", "?", "&", "=", "+", "%", "#", "é", "€", "😀", "-", "_", "~", ".", ";"]
        for _ in 0..<400 {
            let segments = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                random.string(from: alphabet, length: Int.random(in: 1...8, using: &random))
            }
            let items = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                (name: random.string(from: alphabet, length: Int.random(in: 1...6, using: &random)),
                 value: random.string(from: alphabet, length: Int.random(in: 0...6, using: &random)))
            }
            var target = "/" + segments.map { Self.encode($0, spaceAsPlus: false) }.joined(separator: "/")
            if !items.isEmpty {
                target += "?" + items.map { Self.encode($0.name, spaceAsPlus: true) + "=" + Self.encode($0.value, spaceAsPlus: true) }.joined(separator: "&")
            }
            let parsed = try RequestTarget(parsing: target)
            #expect(parsed.path == "/" + segments.joined(separator: "/"), "\(target)")
            #expect(parsed.queryItems.map(\.name) == items.map(\.name), "\(target)")
            #expect(parsed.queryItems.map(\.value) == items.map(\.value), "\(target)")
            // The router sees each segment whole, even one holding an encoded "/".
            var router = Router()
            router.add("GET", "/" + segments.indices.map { "{p\($0)}" }.joined(separator: "/")) { request in
                .json(segments.indices.map { request.pathParameters["p\($0)"] ?? "" })
            }
            let response = router.handle(try HTTPRequest(method: "GET", target: target))
            #expect(try JSONDecoder().decode([String].self, from: Data(response.body)) == segments)
        }
    }

    /// Encodes everything but unreserved characters, as RFC 3986 allows a client to.
    static func encode(_ text: String, spaceAsPlus: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            case UInt8(ascii: " ") where spaceAsPlus:
                out.append("+")
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
