import Foundation
import Observability
import Synchronization

/// An HTTP/1.1 server over libmicrohttpd.
///
/// libmicrohttpd's event loops (`networkThreads`) read requests and write responses and
/// never wait for anything: a complete request goes to a pool of handler threads, fair
/// between clients, while its connection is suspended; a handler that must wait (for the
/// projector, for a commit) throws an `HTTPDeferral` and no thread holds it meanwhile.
/// Inline routes (health, metrics) are answered on the event loop itself, so they answer
/// at once whatever the other clients do.
///
/// Every request gets an `X-Request-Id`, one log line (`msg` "request", with its whole
/// duration from the request line, waits included) and, when a registry is given,
/// `http_requests_total`, `http_request_duration_seconds` and `http_requests_in_flight`.
public final class HTTPServer: Sendable {
    private enum Lifecycle {
        case created
        case running(MicroHTTPDaemon, AcceptLoop, Sweeper)
        case stopping
        case stopped
    }

    let context: ServerContext
    private let lifecycle = Mutex(Lifecycle.created)
    private let boundPort = Atomic<Int>(0)

    public init(configuration: HTTPServerConfiguration, router: Router, logger: Logger, metrics: MetricsRegistry? = nil) {
        context = ServerContext(configuration: configuration, router: router, logger: logger, metrics: metrics)
    }

    /// Binds and starts serving. Throws `HTTPServerError` (`bind_failed`,
    /// `invalid_address`, `invalid_configuration`, `start_failed`, `already_started`).
    public func start() throws {
        let configuration = context.configuration
        try Self.validate(configuration)
        try lifecycle.withLock { (state: inout Lifecycle) throws(HTTPServerError) in
            guard case .created = state else {
                throw HTTPServerError(code: .alreadyStarted, message: "the server was already started")
            }
            let socket = try ListeningSocket.open(host: configuration.host, port: configuration.port, backlog: 511)
            let daemon: MicroHTTPDaemon
            do throws(HTTPServerError) {
                daemon = try MicroHTTPDaemon(context: context)
            } catch {
                close(socket.descriptor)
                throw error
            }
            let accepting = try AcceptLoop(listeningOn: socket.descriptor, daemon: daemon, context: context)
            state = .running(daemon, accepting, Sweeper(interval: .milliseconds(100), context: context))
            boundPort.store(socket.port, ordering: .relaxed)
        }
        context.logger.info("http server listening", [
            "host": .string(configuration.host), "port": .int(port), "threads": .int(configuration.threads),
            "network_threads": .int(configuration.networkThreads),
        ])
    }

    /// Whether a server could listen on `host:port` now: binds and closes at once. Throws
    /// the `bind_failed` (address in use, not permitted) or `invalid_address` that
    /// `start()` would, so that a supervisor can refuse to start before it spawns one.
    public static func checkAvailable(host: String, port: Int) throws(HTTPServerError) {
        let socket = try ListeningSocket.open(host: host, port: port, backlog: 1)
        close(socket.descriptor)
    }

    /// The port the server listens on (the kernel's choice when configured as 0); 0
    /// before `start()`.
    public var port: Int { boundPort.load(ordering: .relaxed) }

    /// Requests received (request line in) and not yet completely answered.
    public var inFlight: Int { context.inFlight.load(ordering: .relaxed) }

    /// Stops gracefully: new connections are refused at once, requests in flight get
    /// their responses (with `Connection: close`) until they are done or `gracePeriod`
    /// seconds have passed; then those still waiting are answered 503 `shutting_down`,
    /// every connection is closed and the threads are joined. A handler still running is
    /// waited for (a thread cannot be interrupted), but its response is not sent.
    /// Idempotent: later calls return at once.
    public func shutdown(gracePeriod: Double) {
        let running: (MicroHTTPDaemon, AcceptLoop, Sweeper)? = lifecycle.withLock { state in
            guard case .running(let daemon, let accepting, let sweeper) = state else {
                if case .created = state { state = .stopped }
                return nil
            }
            state = .stopping
            return (daemon, accepting, sweeper)
        }
        guard let (daemon, accepting, sweeper) = running else { return }
        context.shuttingDown.store(true, ordering: .relaxed)
        accepting.stop()
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, gracePeriod) * 1000))
        while inFlight > 0 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let abandoned = inFlight
        daemon.stop()
        sweeper.stop()
        context.workers.stop()
        lifecycle.withLock { $0 = .stopped }
        context.logger.info("http server stopped", ["port": .int(port), "abandoned_requests": .int(abandoned)])
    }

    deinit {
        shutdown(gracePeriod: 0)
    }

    private static func validate(_ configuration: HTTPServerConfiguration) throws(HTTPServerError) {
        func invalid(_ message: String) -> HTTPServerError { HTTPServerError(code: .invalidConfiguration, message: message) }
        guard (0...65535).contains(configuration.port) else { throw invalid("port \(configuration.port) is out of range") }
        guard (1...1024).contains(configuration.threads) else { throw invalid("threads must be between 1 and 1024") }
        guard (1...64).contains(configuration.networkThreads) else { throw invalid("networkThreads must be between 1 and 64") }
        guard configuration.maxQueuedRequests >= 1 else { throw invalid("maxQueuedRequests must be at least 1") }
        guard configuration.maxRequestsPerClient >= 1 else { throw invalid("maxRequestsPerClient must be at least 1") }
        guard configuration.maxBodyBytes >= 0 else { throw invalid("maxBodyBytes must not be negative") }
        guard configuration.maxHeaderBytes >= 256 else { throw invalid("maxHeaderBytes must be at least 256") }
        guard configuration.connectionTimeoutSeconds >= 0 else { throw invalid("connectionTimeoutSeconds must not be negative") }
        guard configuration.requestHeadTimeoutSeconds > 0, configuration.requestBodyTimeoutSeconds > 0 else {
            throw invalid("the request head and body timeouts must be positive")
        }
        guard configuration.maxConnections >= 1 else { throw invalid("maxConnections must be at least 1") }
    }
}
