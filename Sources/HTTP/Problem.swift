/// RFC 9457 problem details, sent as `application/problem+json`.
///
/// `code` is the stable, machine-readable name of the problem (clients branch on it);
/// `type` is derived from it: `/problems/<code>`, a relative reference (RFC 9457 §3.1.1
/// allows one) that resolves against the request's URI to the API's own page about the
/// code; `detail` says, for a person, what was wrong with this particular request.
public struct Problem: Error, Sendable, Codable, Equatable, CustomStringConvertible {
    /// The base of every problem `type`; the code is appended. Relative, so that the
    /// deployment that answered also serves the page (docs/decisions.md).
    public static let typeBase = "/problems/"

    public var type: String
    public var title: String
    public var status: Int
    public var code: String
    public var detail: String
    /// Individual findings when there are several (e.g. one per invalid field); omitted
    /// from the JSON when `nil`.
    public var errors: [String]?
    /// Seconds after which a retry may succeed, sent as `Retry-After` (429 and 503); not
    /// part of the body.
    public var retryAfter: Int?

    enum CodingKeys: String, CodingKey { case type, title, status, code, detail, errors }

    public init(status: Int, code: String, title: String? = nil, detail: String, errors: [String]? = nil, retryAfter: Int? = nil) {
        self.type = Problem.typeBase + code
        self.title = title ?? HTTPStatus.reasonPhrase(status)
        self.status = status
        self.code = code
        self.detail = detail
        self.errors = errors
        self.retryAfter = retryAfter
    }

    public var description: String {
        "\(status) \(code): \(detail)"
    }
}
