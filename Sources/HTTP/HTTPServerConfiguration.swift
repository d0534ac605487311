/// How an `HTTPServer` listens and what it accepts.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind: an IP literal (`127.0.0.1`, `0.0.0.0`, `::1`) or a host name.
    public var host: String
    /// 0 asks the kernel for a free port; `HTTPServer.port` tells which one after `start()`.
    public var port: Int
    /// Worker threads, each an event loop that also runs handlers; a handler blocking on
    /// the database holds its thread, so this bounds the requests served at once.
    public var threads: Int
    /// Larger bodies are refused with 413 `payload_too_large`.
    public var maxBodyBytes: Int
    /// A larger request line plus header fields is refused with 431 (414 when the
    /// request target alone is too long).
    public var maxHeaderBytes: Int
    /// A connection with no traffic for this long is closed; a request caught half-sent
    /// gets a 408 first.
    public var connectionTimeoutSeconds: Int
    /// Connections beyond this are answered 503 and closed at once.
    public var maxConnections: Int

    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        threads: Int = 16,
        maxBodyBytes: Int = 1 << 20,
        maxHeaderBytes: Int = 16 << 10,
        connectionTimeoutSeconds: Int = 30,
        maxConnections: Int = 1024
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.maxConnections = maxConnections
    }
}
