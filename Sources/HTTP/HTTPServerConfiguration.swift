/// How an `HTTPServer` listens, what it accepts, and how much it lets one client take.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind: an IP literal (`127.0.0.1`, `0.0.0.0`, `::1`) or a host name.
    public var host: String
    /// 0 asks the kernel for a free port; `HTTPServer.port` tells which one after `start()`.
    public var port: Int
    /// Threads that run handlers (which may block on the database). libmicrohttpd's own
    /// threads (`networkThreads`) only move bytes, so a busy handler delays no other
    /// connection; this bounds how many handlers run at once.
    public var threads: Int
    /// libmicrohttpd's event loops, which read requests and write responses and run
    /// inline routes (health, metrics).
    public var networkThreads: Int
    /// Complete requests that may wait for a handler thread; beyond, 503 `overloaded`.
    public var maxQueuedRequests: Int
    /// Requests one client may have in the server at once, running, queued or waiting for
    /// a projection; beyond, 429. A client is what `admissionClient` names, else the
    /// request's address (an IPv6 address by its /64).
    public var maxRequestsPerClient: Int
    /// The client a request's credential proves, when that can be told at once without
    /// I/O (a secret key that verified lately); nil counts the request against its
    /// address. A credential is never a client by its mere presence: one invented per
    /// request would otherwise be a new client each time.
    public var admissionClient: (@Sendable (HTTPHeaders) -> String?)?
    /// The header fields that carry a credential. Each but `Cookie` (a list by nature) is
    /// one a request may carry once: two are a 400 `conflicting_credentials`, never "the
    /// first wins".
    public var clientCredentialHeaders: [String]
    /// Larger bodies are refused with 413 `payload_too_large`.
    public var maxBodyBytes: Int
    /// A larger request line plus header fields is refused with 431 (414 when the
    /// request target alone is too long).
    public var maxHeaderBytes: Int
    /// A connection with no traffic for this long is closed; a request caught half-sent
    /// gets a 408 first.
    public var connectionTimeoutSeconds: Int
    /// Seconds from a request's first byte to the end of its head, however steadily the
    /// bytes come; then 408 and the connection is closed.
    public var requestHeadTimeoutSeconds: Double
    /// Seconds from the end of a head to the end of its body; then 408 and close.
    public var requestBodyTimeoutSeconds: Double
    /// Connections beyond this are answered 503 and closed at once.
    public var maxConnections: Int
    /// Connections one address (an IPv6 address by its /64) may hold; beyond, or when the
    /// server is past three quarters of `maxConnections` and the address already holds an
    /// eighth of this, 503 and closed at once (`AddressConnections`). Trusted proxies are
    /// not limited: the clients behind them are theirs to limit.
    public var maxConnectionsPerAddress: Int
    /// `maxConnections` unless set.
    public static let defaultMaxConnections = 1024
    /// The reverse proxies whose `X-Forwarded-For` names the client (`HTTPRequest.remoteAddress`).
    public var trustedProxies: TrustedProxies = .none

    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        threads: Int = 16,
        networkThreads: Int = 2,
        maxQueuedRequests: Int = 1024,
        maxRequestsPerClient: Int = 32,
        clientCredentialHeaders: [String] = ["Authorization", "X-ZeroSettle-Key", "Cookie"],
        maxBodyBytes: Int = 1 << 20,
        maxHeaderBytes: Int = 16 << 10,
        connectionTimeoutSeconds: Int = 30,
        requestHeadTimeoutSeconds: Double = 10,
        requestBodyTimeoutSeconds: Double = 30,
        maxConnections: Int = defaultMaxConnections,
        maxConnectionsPerAddress: Int = 64,
        trustedProxies: TrustedProxies = .none,
        admissionClient: (@Sendable (HTTPHeaders) -> String?)? = nil
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.networkThreads = networkThreads
        self.maxQueuedRequests = maxQueuedRequests
        self.maxRequestsPerClient = maxRequestsPerClient
        self.clientCredentialHeaders = clientCredentialHeaders
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.requestHeadTimeoutSeconds = requestHeadTimeoutSeconds
        self.requestBodyTimeoutSeconds = requestBodyTimeoutSeconds
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.trustedProxies = trustedProxies
        self.admissionClient = admissionClient
    }
}
