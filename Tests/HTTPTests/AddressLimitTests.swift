import Foundation
import Testing
import TestSupport
@testable import HTTP

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to the loopback server from a chosen loopback source address (Linux
/// routes all of 127.0.0.0/8 to the loopback interface), so that one test can be several
/// clients.
final class LoopbackPeer {
    let descriptor: Int32

    init(from source: String, port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, connected == 0 else {
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(descriptor) }

    func write(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What the server sends until it closes the connection or five seconds pass.
    func readToEnd() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(descriptor, &buffer, buffer.count, 0)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A whole GET and its answer's status (nil: none came).
    func get(_ path: String) -> Int? {
        write("GET \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        return parseRawResponse(readToEnd())?.status
    }
}

@Suite("Server: one address cannot take the connections from everyone else", .bounded)
struct AddressLimitTests {
    static func server(maxConnections: Int, perAddress: Int) throws -> TestServer {
        try TestServer(configuration: HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, threads: 2, connectionTimeoutSeconds: 30,
            maxConnections: maxConnections, maxConnectionsPerAddress: perAddress)) { router in
            router.add("GET", "/hello") { _ in .text("hello") }
        }
    }

    /// Opens `count` connections from `source`, each with a request head half sent.
    static func halfSent(_ count: Int, from source: String, port: Int) throws -> [LoopbackPeer] {
        try (0..<count).map { _ in
            let peer = try LoopbackPeer(from: source, port: port)
            peer.write("GET /hello HTTP/1.1\r\nHost: t\r\n")
            return peer
        }
    }

    @Test("half-sent connections from one address beyond its share are refused 503 at once; another address is served")
    func oneAddressOverItsShare() throws {
        let server = try Self.server(maxConnections: 1024, perAddress: 8)
        defer { server.stop() }
        let held = try Self.halfSent(8, from: "127.0.0.2", port: server.port)
        #expect(Poll.until(timeout: 5) { server.server.context.addresses.count("127.0.0.2") == 8 })
        // The attacker's next ones: refused at once, in the API's problem shape.
        for _ in 0..<20 {
            let extra = try LoopbackPeer(from: "127.0.0.2", port: server.port)
            let response = try #require(parseRawResponse(extra.readToEnd()))
            #expect(response.status == 503)
            #expect(response.headers["Retry-After"] == "1")
            #expect(jsonObject(response.body)?["code"] as? String == "too_many_connections")
        }
        #expect(server.server.context.addresses.count("127.0.0.2") == 8, "a refused connection holds nothing")
        #expect(try LoopbackPeer(from: "127.0.0.3", port: server.port).get("/hello") == 200)
        withExtendedLifetime(held) {}
    }

    @Test("past three quarters of the server's limit, only addresses holding little get a new connection")
    func headroomForTheModest() throws {
        // 16 in all, 8 per address, a modest share of 1: two addresses of 6 fill 12, the
        // three quarters; then each of them is refused, and a third address still gets in.
        let server = try Self.server(maxConnections: 16, perAddress: 8)
        defer { server.stop() }
        let first = try Self.halfSent(6, from: "127.0.0.4", port: server.port)
        let second = try Self.halfSent(6, from: "127.0.0.5", port: server.port)
        #expect(Poll.until(timeout: 5) { server.server.context.openConnections.load(ordering: .relaxed) == 12 },
                "open \(server.server.context.openConnections.load(ordering: .relaxed)): \(server.server.context.addresses.count("127.0.0.4")) and \(server.server.context.addresses.count("127.0.0.5"))")
        let refused = try LoopbackPeer(from: "127.0.0.4", port: server.port)
        #expect(parseRawResponse(refused.readToEnd())?.status == 503)
        #expect(try LoopbackPeer(from: "127.0.0.6", port: server.port).get("/hello") == 200)
        withExtendedLifetime((first, second)) {}
    }

    @Test("the counted address is the IPv4 address, the IPv4 one of a mapped IPv6 address, or an IPv6 address's /64")
    func keys() {
        #expect(ClientNetwork.key(of: "203.0.113.7") == "203.0.113.7")
        #expect(ClientNetwork.key(of: "::ffff:203.0.113.7") == "203.0.113.7")
        #expect(ClientNetwork.key(of: "2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(ClientNetwork.key(of: "2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64")
        #expect(ClientNetwork.key(of: "2001:db8:1:3::1") != ClientNetwork.key(of: "2001:db8:1:2::1"))
    }
}
