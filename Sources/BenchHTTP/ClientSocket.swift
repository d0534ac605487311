#if canImport(Glibc)
import Glibc
#endif

/// A connected TCP socket with read and write timeouts; closed in `deinit`.
final class ClientSocket {
    private let descriptor: Int32

    init(host: String, port: Int, timeout: Double) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPClientError(code: .connectFailed, message: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        var lastError = "no address"
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            let candidate = socket(entry.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard candidate >= 0 else { continue }
            // SO_SNDTIMEO also bounds connect(2) on Linux.
            setsockopt(candidate, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(candidate, SOL_SOCKET, SO_SNDTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
            var on: Int32 = 1
            setsockopt(candidate, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            if connect(candidate, entry.pointee.ai_addr, entry.pointee.ai_addrlen) == 0 {
                descriptor = candidate
                return
            }
            lastError = String(cString: strerror(errno))
            close(candidate)
        }
        throw HTTPClientError(code: .connectFailed, message: "connect \(host):\(port): \(lastError)")
    }

    deinit { close(descriptor) }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    if errno == EINTR { continue }
                    let code: HTTPClientError.Code = (errno == EAGAIN || errno == EWOULDBLOCK) ? .timeout : .sendFailed
                    throw HTTPClientError(code: code, message: "send: \(String(cString: strerror(errno)))")
                }
                offset += sent
            }
        }
    }

    /// The next bytes available; throws `connection_closed` at end of stream.
    func read() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { return Array(chunk[..<count]) }
            if count == 0 { throw HTTPClientError(code: .connectionClosed, message: "the server closed the connection") }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                throw HTTPClientError(code: .timeout, message: "no response within the timeout")
            }
            if errno == ECONNRESET {
                throw HTTPClientError(code: .connectionClosed, message: "the server reset the connection")
            }
            throw HTTPClientError(code: .connectionClosed, message: "recv: \(String(cString: strerror(errno)))")
        }
    }
}
