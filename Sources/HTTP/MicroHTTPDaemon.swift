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
    /// The listening socket, until `quiesce()` hands it back or the daemon closes it.
    private let listenDescriptor = Mutex<Int32?>(nil)

    /// Starts serving on `descriptor` (bound and listening). On failure the socket is closed.
    init(listeningOn descriptor: Int32, context: ServerContext) throws(HTTPServerError) {
        let configuration = context.configuration
        let pointer = ledger_mhd_start(
            descriptor,
            UInt32(configuration.networkThreads),
            // Above our own limit, which answers the excess with a 503 instead of letting it
            // wait in the backlog; see `ServerContext.connectionOpened`.
            UInt32(clamping: configuration.maxConnections * 2 + configuration.networkThreads),
            UInt32(configuration.connectionTimeoutSeconds),
            context.connectionMemoryLimit,
            microHTTPDAccessHandler,
            microHTTPDRequestStarted,
            microHTTPDRequestCompleted,
            microHTTPDConnectionNotification,
            Unmanaged.passUnretained(context).toOpaque(),
            context.messageSink)
        guard let pointer else {
            close(descriptor)
            throw HTTPServerError(code: .startFailed, message: "libmicrohttpd could not start (threads, limits or memory)")
        }
        self.daemon = pointer
        self.context = context
        listenDescriptor.withLock { $0 = descriptor }
    }

    deinit { stop() }

    /// Stops accepting connections: the listening socket is taken from the daemon and
    /// closed, so new connections are refused while those already open carry on.
    func quiesce() {
        let alreadyStopped = stopped.withLock { $0 }
        guard !alreadyStopped, let descriptor = listenDescriptor.withLock({ $0.take() }) else { return }
        let returned = MHD_quiesce_daemon(daemon)
        close(returned >= 0 ? returned : descriptor)
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
        // libmicrohttpd closes a listening socket it still has; one taken by quiesce() was
        // closed there.
        _ = listenDescriptor.withLock { $0.take() }
        MHD_stop_daemon(daemon)
    }
}
