import Observability
import Synchronization

/// Everything the libmicrohttpd callbacks need, reached through the `void *` they are
/// given. Kept alive by the daemon wrapper for as long as the daemon runs.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let router: Router
    let logger: Logger
    let metrics: ServerMetrics?
    /// Requests between their request line and the end of their response.
    let inFlight = Atomic<Int>(0)
    /// Open connections, counted here because libmicrohttpd's own limit makes new
    /// connections wait in the listen backlog rather than refusing them.
    let openConnections = Atomic<Int>(0)
    /// Set when shutdown begins: responses then carry `Connection: close`.
    let shuttingDown = Atomic<Bool>(false)

    init(configuration: HTTPServerConfiguration, router: Router, logger: Logger, metrics: MetricsRegistry?) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.metrics = metrics.map(ServerMetrics.init(registry:))
    }

    /// Bytes of request line and header fields beyond which a request is refused; the
    /// connection's memory pool is sized well above it (see `connectionMemoryLimit`).
    var maxHeaderBytes: Int { configuration.maxHeaderBytes }

    /// libmicrohttpd keeps the request line, the header fields, the read buffer for the
    /// body and the response header in one fixed pool per connection. Twice the header
    /// limit plus room for the rest means our own 431 check sees oversized headers before
    /// the pool runs out (when libmicrohttpd would answer with its own HTML 431/414).
    var connectionMemoryLimit: Int { 2 * configuration.maxHeaderBytes + 16 * 1024 }
}
