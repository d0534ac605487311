import Dispatch
import Foundation
import Glibc
import HTTP
import Observability
import Synchronization

/// A real HTTP receiver on a loopback port (the project's own server), answering as the
/// routes say, and counting what it received.
final class Receiver: Sendable {
    let server: HTTPServer
    let inbox = Inbox()
    /// Signalled when the receiver stops: until then `/slow` hangs (up to 30 s).
    let release = DispatchSemaphore(value: 0)

    init() throws {
        var router = Router()
        let inbox = self.inbox
        let release = self.release
        @Sendable func record(_ request: HTTPRequest) { inbox.requests.withLock { $0.append(request) } }
        router.add("POST", "/ok") { record($0); return .text("thanks") }
        router.add("POST", "/fail") { record($0); return .text("broken", status: 500) }
        router.add("POST", "/slow") { record($0); _ = release.wait(timeout: .now() + 30); return .text("late") }
        router.add("POST", "/long") { record($0); return HTTPResponse(status: 200, body: Receiver.longAnswer) }
        router.add("POST", "/big") { record($0); return HTTPResponse(status: 200, body: [UInt8](repeating: 0x61, count: 2 << 20)) }
        router.add("POST", "/redirect") { record($0); return HTTPResponse(status: 302, headers: ["Location": "/ok"]) }
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 8, maxRequestsPerClient: 256, connectionTimeoutSeconds: 10),
                            router: router, logger: Logger(minimumLevel: .error), metrics: nil)
        try server.start()
    }

    func url(_ path: String, scheme: String = "http", host: String = "127.0.0.1") -> String {
        "\(scheme)://\(host):\(server.port)\(path)"
    }

    func stop() {
        for _ in 0..<8 { release.signal() }
        server.shutdown(gracePeriod: 1)
    }

    var received: [HTTPRequest] { inbox.requests.withLock { $0 } }

    /// What `/long` answers: 300 KB that differ along their length, so that a digest of
    /// only some of libcurl's pieces, or of them out of order, would not match.
    static let longAnswer: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) }
}

/// What a receiver was sent.
final class Inbox: Sendable {
    let requests = Mutex<[HTTPRequest]>([])
}

/// A TCP listener that misbehaves: accepts and closes at once, or accepts and says nothing.
final class RawListener: Sendable {
    enum Behaviour { case closeAtOnce, silent }
    let fd: Int32
    let port: Int
    /// The connections a silent listener keeps open.
    private let held = Held()

    final class Held: Sendable {
        let fds = Mutex<[Int32]>([])
    }

    init(_ behaviour: Behaviour) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) } }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let held = self.held
        // Ends when stop() shuts the listening socket down and accept fails.
        let thread = Thread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                switch behaviour {
                case .closeAtOnce: close(client)
                case .silent: held.fds.withLock { $0.append(client) }
                }
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        held.fds.withLock { $0.forEach { close($0) } }
    }
}
