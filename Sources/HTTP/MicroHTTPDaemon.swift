import CMicroHTTPD
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Owns one running libmicrohttpd daemon and the context its callbacks use.
///
/// The context is retained here, not by the caller, so that it outlives every callback:
/// the daemon is stopped (its threads joined) before the context can be released.
final class MicroHTTPDaemon: @unchecked Sendable {
    private let daemon: OpaquePointer
    private let context: ServerContext
    /// Whether `stop()` has run; the daemon pointer is dangling afterwards.
    private let stopped = Mutex(false)

    /// The most connections libmicrohttpd holds: above our own limit, which answers the
    /// excess with a 503 instead of letting it wait in the backlog (see
    /// `ServerContext.connectionOpened`); `AcceptLoop` stops accepting just below it.
    static func connectionLimit(_ configuration: HTTPServerConfiguration) -> Int {
        configuration.maxConnections * 2 + configuration.networkThreads
    }

    /// Starts the daemon; connections come from `add`.
    init(context: ServerContext) throws(HTTPServerError) {
        let configuration = context.configuration
        let pointer = ledger_mhd_start(
            UInt32(configuration.networkThreads),
            UInt32(clamping: Self.connectionLimit(configuration)),
            UInt32(configuration.connectionTimeoutSeconds),
            context.connectionMemoryLimit,
            microHTTPDAccessHandler,
            microHTTPDRequestStarted,
            microHTTPDRequestCompleted,
            microHTTPDConnectionNotification,
            Unmanaged.passUnretained(context).toOpaque(),
            context.messageSink)
        guard let pointer else {
            throw HTTPServerError(code: .startFailed, message: "libmicrohttpd could not start (threads, limits or memory)")
        }
        self.daemon = pointer
        self.context = context
    }

    deinit { stop() }

    /// Hands over an accepted connection; libmicrohttpd closes it if it cannot take it.
    /// `false` once the daemon is stopped (the socket is closed here then).
    func add(_ descriptor: Int32, address: UnsafePointer<sockaddr>, length: socklen_t) -> Bool {
        stopped.withLock { stopped in
            guard !stopped else {
                close(descriptor)
                return false
            }
            return MHD_add_connection(daemon, descriptor, address, length).rawValue == 1
        }
    }

    /// Answers what is still suspended, closes every connection and joins the network
    /// threads. Idempotent.
    func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // libmicrohttpd aborts the process if it is stopped with a connection suspended.
        // Those resumed with a 503 get a moment to send it before the sockets close.
        if context.abandonSuspended() > 0 {
            let deadline = ContinuousClock.now + .milliseconds(200)
            while context.inFlight.load(ordering: .relaxed) > 0 && ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        MHD_stop_daemon(daemon)
    }
}
