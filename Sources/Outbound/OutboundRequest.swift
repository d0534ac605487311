/// One request to send: a POST of `body` with `headers`, answered within `timeout`.
public struct OutboundRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Seconds for the whole exchange, connecting included.
    public var timeout: Double
    /// Whether the answer's bytes (at most `OutboundClient.maximumAnswerBytes`) and its
    /// `Retry-After` are kept in the response: for clients of an API that must read what it
    /// answered (the App Store Server API). Off for webhooks, whose answers are not ours to keep.
    public var keepsAnswer = false
    /// Further headers of the answer to keep, by name, when `keepsAnswer` is set (the
    /// `Retry-After` is kept anyway): what an API says about a failure beside its body,
    /// as Stripe's `Stripe-Should-Retry` and `Request-Id`.
    public var keptAnswerHeaders: [String] = []

    public init(method: String = "POST", url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
                timeout: Double = 10) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// The answer to an `OutboundRequest`: its status, its body's digest and length, how long
/// it took. Not the body, unless the request asked for it (`keepsAnswer`): a webhook's
/// sender needs no more, and what is not kept cannot end up in the log.
public struct OutboundResponse: Sendable, Equatable {
    public var status: Int
    /// The SHA-256 of the whole body, lowercase hex: what an operator can match against
    /// the receiver's own record of what it answered.
    public var bodySHA256: String
    /// The body's whole length as received.
    public var bodyBytes: Int
    /// Seconds from the start of the request to the end of the answer.
    public var latency: Double
    /// The address connected to.
    public var remoteAddress: String?
    /// The answer's bytes, only when the request asked to keep them (`keepsAnswer`).
    public var body: [UInt8]?
    /// The answer's `Retry-After` header, only when the request asked to keep the answer.
    public var retryAfter: String?
    /// The values of the headers the request named in `keptAnswerHeaders` that the answer
    /// had, by the name the request gave.
    public var keptHeaders: [String: String]

    public init(status: Int, bodySHA256: String, bodyBytes: Int, latency: Double, remoteAddress: String?,
                body: [UInt8]? = nil, retryAfter: String? = nil, keptHeaders: [String: String] = [:]) {
        self.body = body
        self.retryAfter = retryAfter
        self.keptHeaders = keptHeaders
        self.status = status
        self.bodySHA256 = bodySHA256
        self.bodyBytes = bodyBytes
        self.latency = latency
        self.remoteAddress = remoteAddress
    }
}
