#if canImport(Glibc)
import Glibc
#endif

/// Opens the listening socket the daemon is given.
///
/// Binding here rather than through `MHD_OPTION_SOCK_ADDR` is what lets `start()` say why
/// it failed: `MHD_start_daemon` only returns NULL, whereas `bind(2)` leaves `errno`
/// (address in use, not permitted, not a local address).
enum ListeningSocket {
    /// A bound, listening, non-blocking socket and the port it got.
    static func open(host: String, port: Int, backlog: Int32) throws(HTTPServerError) -> (descriptor: Int32, port: Int) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPServerError(code: .invalidAddress, message: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address for \(host)"
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            let descriptor = socket(entry.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else {
                lastError = "socket: \(String(cString: strerror(errno)))"
                continue
            }
            var on: Int32 = 1
            // Lets a restarted service bind while old connections sit in TIME_WAIT.
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            guard bind(descriptor, entry.pointee.ai_addr, entry.pointee.ai_addrlen) == 0 else {
                lastError = "bind \(host):\(port): \(String(cString: strerror(errno)))"
                close(descriptor)
                continue
            }
            guard listen(descriptor, backlog) == 0 else {
                lastError = "listen \(host):\(port): \(String(cString: strerror(errno)))"
                close(descriptor)
                continue
            }
            // `AcceptLoop` drains the backlog until accept4 would block.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            return (descriptor, boundPort(descriptor) ?? port)
        }
        throw HTTPServerError(code: .bindFailed, message: lastError)
    }

    private static func boundPort(_ descriptor: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        guard ok else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
        default:
            return nil
        }
    }
}
