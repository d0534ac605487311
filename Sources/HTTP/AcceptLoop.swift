import CSocket
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Accepts connections on the listening socket and hands them to libmicrohttpd.
///
/// The server accepts rather than libmicrohttpd so that it can stop accepting by itself:
/// `stop()` ends the loop and closes the socket, after which new connections are refused
/// by the kernel, while those already handed over carry on. libmicrohttpd's own way
/// (`MHD_quiesce_daemon`) can abort the process (see `ledger_mhd_start`).
///
/// One thread, which only waits for the socket and accepts: a connection costs it one
/// `accept4`, a request nothing. At libmicrohttpd's connection limit it stops accepting
/// until connections close, so that further clients wait in the kernel's backlog.
final class AcceptLoop: Sendable {
    private let descriptor: Int32
    /// Written by `stop()` to wake the loop from `poll`.
    private let wake: Int32
    private let stopping = Atomic<Bool>(false)
    /// The second (Unix time) the last refusal was logged in.
    private let lastRefusalLogged = Atomic<Int64>(0)
    private let exited = DispatchSemaphore(value: 0)

    /// Starts accepting on `descriptor` (bound, listening, non-blocking), which it owns
    /// from here: `stop()` closes it.
    init(listeningOn descriptor: Int32, daemon: MicroHTTPDaemon, context: ServerContext) throws(HTTPServerError) {
        let wake = ledger_wake_fd()
        guard wake >= 0 else {
            close(descriptor)
            throw HTTPServerError(code: .startFailed, message: "eventfd: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.wake = wake
        let limit = MicroHTTPDaemon.connectionLimit(context.configuration) - context.configuration.networkThreads
        let thread = Thread { [self] in
            run(daemon: daemon, context: context, limit: limit)
            exited.signal()
        }
        thread.name = "ledger-http-accept"
        thread.start()
    }

    /// Stops accepting and closes the listening socket; returns once the loop has ended.
    /// Idempotent.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
        exited.wait()
        close(descriptor)
        close(wake)
    }

    private func run(daemon: MicroHTTPDaemon, context: ServerContext, limit: Int) {
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while !stopping.load(ordering: .acquiring) {
            if context.openConnections.load(ordering: .relaxed) >= limit {
                // Full: leave the clients in the backlog, and look again when some have closed.
                _ = poll(&fds[1], 1, 20)
                continue
            }
            fds[0].revents = 0
            fds[1].revents = 0
            guard poll(&fds, 2, -1) > 0, fds[0].revents != 0 else { continue }
            acceptPending(daemon: daemon, context: context, limit: limit)
        }
    }

    /// Answers a connection over its address's share 503 and closes it, before
    /// libmicrohttpd ever sees it: it holds no slot while its client retries. Logged at
    /// most once a second, since a flood is exactly when a line per refusal would hurt.
    private func refuse(_ client: Int32, peer: String, context: ServerContext) {
        var response = context.router.problemResponse(Problem(
            status: 503, code: "too_many_connections",
            detail: "This address has as many connections open as the server allows one address; close some, or retry shortly.",
            retryAfter: 1), path: "/")
        response.addServerHeaders(requestID: RequestID.generate())
        ServerContext.sendBestEffort(response.wireBytes(), to: client)
        close(client)
        context.metrics?.refusedConnections.increment(labels: ["limit": "address"])
        let second = Int64(Date().timeIntervalSince1970)
        if lastRefusalLogged.exchange(second, ordering: .relaxed) != second {
            context.logger.warning("connection refused: the address is over its share", [
                "address": .string(peer), "limit": .int(context.addresses.perAddress)])
        }
    }

    /// The address literal of a peer, as libmicrohttpd prints it (`inet_ntop`).
    static func text(of address: inout sockaddr_storage) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = Int32(address.ss_family)
        let ok: Bool = withUnsafePointer(to: &address) { pointer in
            switch family {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var a = v4.pointee.sin_addr
                    return inet_ntop(AF_INET, &a, &buffer, socklen_t(buffer.count)) != nil
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var a = v6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &a, &buffer, socklen_t(buffer.count)) != nil
                }
            default:
                return false
            }
        }
        return ok ? String(cString: buffer) : "unknown"
    }

    /// Accepts what the backlog holds, up to the limit.
    private func acceptPending(daemon: MicroHTTPDaemon, context: ServerContext, limit: Int) {
        var accepted = 0
        while !stopping.load(ordering: .relaxed) && context.openConnections.load(ordering: .relaxed) + accepted < limit {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    ledger_accept(descriptor, $0, &length)
                }
            }
            guard client >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK, EINTR: return
                case ECONNABORTED, EPROTO: continue  // The client gave up before it was accepted.
                default:
                    // Out of descriptors or memory: back off rather than spin, and say so.
                    context.logger.warning("accept failed", ["error": .string(String(cString: strerror(errno)))])
                    _ = poll(nil, 0, 100)
                    return
                }
            }
            let peer = Self.text(of: &address)
            let key = context.addressKey(peer)
            if let key, !context.addresses.enter(key, reported: context.openConnections.load(ordering: .relaxed)) {
                refuse(client, peer: peer, context: context)
                continue
            }
            let added = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { daemon.add(client, address: $0, length: length) }
            }
            if added {
                accepted += 1
            } else if let key {
                context.addresses.leave(key)
            }
        }
    }
}
