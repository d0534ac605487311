/// One request to send: a POST of `body` with `headers`, answered within `timeout`.
public struct OutboundRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Seconds for the whole exchange, connecting included.
    public var timeout: Double

    public init(method: String = "POST", url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
                timeout: Double = 10) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The answer to an `OutboundRequest`: its status, the start of its body, how long it took.
public struct OutboundResponse: Sendable, Equatable {
    public var status: Int
    /// The first `OutboundClient.excerptBytes` bytes of the body, as UTF-8 (invalid bytes
    /// replaced): enough to tell an operator what the receiver said.
    public var excerpt: String
    /// The body's whole length as received.
    public var bodyBytes: Int
    /// Seconds from the start of the request to the end of the answer.
    public var latency: Double
    /// The address connected to.
    public var remoteAddress: String?

    public init(status: Int, excerpt: String, bodyBytes: Int, latency: Double, remoteAddress: String?) {
        self.status = status
        self.excerpt = excerpt
        self.bodyBytes = bodyBytes
        self.latency = latency
        self.remoteAddress = remoteAddress
    }
}
