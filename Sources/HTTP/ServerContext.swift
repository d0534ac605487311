import CMicroHTTPD
import Observability
import Synchronization

/// Everything the libmicrohttpd callbacks need, reached through the `void *` they are
/// given. Kept alive by the daemon wrapper for as long as the daemon runs.
final class ServerContext: Sendable {
    /// A libmicrohttpd connection pointer, passed to the worker that resumes it. The
    /// connection stays valid while it is suspended: libmicrohttpd neither reads nor
    /// closes a suspended connection, and `Suspensions` stops every resume before the
    /// daemon stops.
    struct ConnectionHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Requests whose connection is suspended while a worker or a wait has them.
    struct Suspensions: Sendable {
        /// Cleared at shutdown, after which nothing is suspended or resumed any more.
        var accepting = true
        var requests: [ObjectIdentifier: (state: RequestState, connection: ConnectionHandle)] = [:]
    }

    let configuration: HTTPServerConfiguration
    let router: Router
    let logger: Logger
    let metrics: ServerMetrics?
    let workers: WorkerPool
    let admission: ClientAdmission
    /// Open connections per address (`AcceptLoop` counts them in, the close notification out).
    let addresses: AddressConnections
    /// Requests between their request line and the end of their response.
    let inFlight = Atomic<Int>(0)
    /// Open connections, counted here because libmicrohttpd's own limit makes new
    /// connections wait in the listen backlog rather than refusing them.
    let openConnections = Atomic<Int>(0)
    /// Set when shutdown begins: responses then carry `Connection: close`.
    let shuttingDown = Atomic<Bool>(false)
    /// Every open connection, for the sweeper. A record leaves in the close notification,
    /// which libmicrohttpd sends before it closes the socket, so that a socket the
    /// sweeper touches under this lock is still this connection's.
    let connections = Mutex<[ObjectIdentifier: ConnectionRecord]>([:])
    let suspensions = Mutex(Suspensions())
    /// libmicrohttpd's own diagnostics land here (`MHD_OPTION_EXTERNAL_LOGGER`).
    nonisolated(unsafe) let messageSink: UnsafeMutablePointer<ledger_mhd_logger>

    init(configuration: HTTPServerConfiguration, router: Router, logger: Logger, metrics: MetricsRegistry?) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.metrics = metrics.map(ServerMetrics.init(registry:))
        self.workers = WorkerPool(threads: configuration.threads, queueLimit: configuration.maxQueuedRequests, name: "http-worker")
        self.admission = ClientAdmission(limit: configuration.maxRequestsPerClient)
        self.addresses = AddressConnections(perAddress: configuration.maxConnectionsPerAddress, serverLimit: configuration.maxConnections)
        self.messageSink = .allocate(capacity: 1)
        messageSink.initialize(to: ledger_mhd_logger(callback: microHTTPDMessage, cls: nil))
        messageSink.pointee.cls = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        workers.stop()
        messageSink.deinitialize(count: 1)
        messageSink.deallocate()
    }

    /// Bytes of request line and header fields beyond which a request is refused; the
    /// connection's memory pool is sized well above it (see `connectionMemoryLimit`).
    var maxHeaderBytes: Int { configuration.maxHeaderBytes }

    /// libmicrohttpd keeps the request line, the header fields, the read buffer for the
    /// body and the response header in one fixed pool per connection, and clears all of
    /// it between requests (so a larger pool costs every request). Twice the header limit
    /// plus room for the rest means our own 431 check sees oversized headers before the
    /// pool runs out (when libmicrohttpd would answer with its own HTML 431/414).
    var connectionMemoryLimit: Int { 2 * configuration.maxHeaderBytes + 16 * 1024 }
}
