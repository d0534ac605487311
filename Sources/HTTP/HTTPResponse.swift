import Foundation
import LedgerJSON

/// A complete response: status, header fields and body.
///
/// `Content-Length` and `Date` are added by the server when it sends the response;
/// handlers set everything else.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `value` as JSON (`application/json`), keys sorted so that equal values give equal
    /// bytes. A value that cannot be encoded (a non-finite `Double`, say) is a bug in the
    /// handler and becomes a 500 problem rather than a half-written body.
    public static func json<T: Encodable>(_ value: T, status: Int = 200, headers: HTTPHeaders = [:]) -> HTTPResponse {
        guard let body = try? encodeJSON(value) else {
            return .problem(Problem(status: 500, code: "internal_error", detail: "The response could not be encoded."))
        }
        var all = headers
        all.replaceOrAdd(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: status, headers: all, body: body)
    }

    /// A 2xx JSON answer written by the value itself, for answers large enough that
    /// `Codable`'s walk would be the cost of the request.
    public static func json(streaming value: some JSONStreamWritable, status: Int = 200, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var all = headers
        all.replaceOrAdd(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: status, headers: all, body: value.streamedJSON())
    }

    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }

    /// The problem as `application/problem+json`, with its own status.
    public static func problem(_ problem: Problem) -> HTTPResponse {
        // A Problem has only strings, integers and optional string arrays: encoding cannot fail.
        let body = (try? encodeJSON(problem)) ?? Array("{}".utf8)
        return HTTPResponse(status: problem.status, headers: ["Content-Type": "application/problem+json"], body: body)
    }

    /// Through `JSONValue` rather than Foundation's `JSONEncoder`, which cost a journal page
    /// three quarters of its handler's time; the bytes are the same (sorted keys, raw UTF-8,
    /// unescaped slashes), and a floating-point number that is not whole is refused, as
    /// everywhere money is near.
    static func encodeJSON<T: Encodable>(_ value: T) throws -> [UInt8] {
        try JSONValueEncoder().encodeCompactBytes(value, sortedKeys: true)
    }
}
