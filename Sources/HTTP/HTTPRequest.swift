import Foundation

/// One request, complete with its body, as a handler sees it.
public struct HTTPRequest: Sendable {
    /// Upper case, e.g. `GET`.
    public var method: String
    /// Percent-decoded, without the query.
    public var path: String
    /// Decoded (`+` as space), in the order received.
    public var queryItems: [(name: String, value: String)]
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The peer's IP address, e.g. `127.0.0.1`.
    public var remoteAddress: String
    /// The client's `X-Request-Id` when it is well-formed, otherwise one made up here;
    /// echoed on the response and written in every log line about the request.
    public var requestID: String
    /// The values of the route's `{name}` segments, filled in by the router.
    public var pathParameters: [String: String]
    /// The pattern of the route that matched, e.g. `/v1/projects/{id}/journal`.
    public var route: String?
    public var receivedAt: Date
    /// The path as received (still percent-encoded), when known; the router splits it
    /// rather than `path` so that `%2F` stays inside its segment.
    var encodedPath: String?

    public init(
        method: String,
        path: String,
        queryItems: [(name: String, value: String)] = [],
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1",
        requestID: String = RequestID.generate(),
        receivedAt: Date = Date()
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.requestID = requestID
        self.pathParameters = [:]
        self.route = nil
        self.receivedAt = receivedAt
        self.encodedPath = nil
    }

    /// A request for a raw request target (`/path?query` as on the request line), which is
    /// split and percent-decoded; throws a 400 problem `invalid_request_target` when it
    /// cannot be.
    public init(
        method: String,
        target: String,
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1",
        requestID: String = RequestID.generate(),
        receivedAt: Date = Date()
    ) throws(Problem) {
        let parsed = try RequestTarget(parsing: target)
        self.init(
            method: method, path: parsed.path, queryItems: parsed.queryItems, headers: headers, body: body,
            remoteAddress: remoteAddress, requestID: requestID, receivedAt: receivedAt)
        self.encodedPath = parsed.encodedPath
    }

    /// The first value of the query parameter `name`.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}
