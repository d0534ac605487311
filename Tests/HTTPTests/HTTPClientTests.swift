import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HTTP
@testable import BenchHTTP

#if canImport(Glibc)
import Glibc
#endif

@Suite("HTTPClient", .bounded)
struct HTTPClientTests {
    /// A scripted peer: accepts one connection and, for each request it reads, writes the
    /// next canned reply verbatim; records the requests it saw.
    final class ScriptedPeer: Sendable {
        let port: Int
        private let listener: Int32
        let requests = Mutex<[String]>([])

        /// `linger` keeps the connection open that many seconds after the last reply.
        init(replies: [String], linger: Double = 0) throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &length) == 0
                }
            }
            try #require(bound)
            self.listener = listener
            port = Int(UInt16(bigEndian: address.sin_port))
            Thread.detachNewThread { [self] in
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                defer {
                    SlowPeer.pause(linger)
                    close(connection)
                }
                var pending = ""
                for reply in replies {
                    while !pending.contains("\r\n\r\n") {
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        let count = recv(connection, &buffer, buffer.count, 0)
                        guard count > 0 else { return }
                        pending += String(decoding: buffer[..<count], as: UTF8.self)
                    }
                    let end = pending.range(of: "\r\n\r\n")!
                    let head = String(pending[..<end.upperBound])
                    pending.removeSubrange(..<end.upperBound)
                    self.requests.withLock { $0.append(head) }
                    // Writes the reply in two pieces, so the client has to reassemble it.
                    let bytes = Array(reply.utf8)
                    let middle = bytes.count / 2
                    _ = bytes[..<middle].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    SlowPeer.pause(0.02)
                    _ = bytes[middle...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            }
        }

        deinit { close(listener) }
    }

    @Test func readsChunkedAndContentLengthBodiesOverOneConnection() throws {
        let peer = try ScriptedPeer(replies: [
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 3\r\ncontent-type: text/plain\r\n\r\nabc",
            "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n",
        ])
        let client = try HTTPClient(host: "127.0.0.1", port: peer.port, timeout: 5)
        let first = try client.send(method: "GET", path: "/a", headers: [("X-Request-Id", "r1")])
        #expect(first.status == 200)
        #expect(String(decoding: first.body, as: UTF8.self) == "hello, world")
        #expect(first.headers["x-a"] == "1")
        let second = try client.send(method: "POST", path: "/b", body: Array("xyz".utf8))
        #expect(second.status == 201)
        #expect(second.body == Array("abc".utf8))
        #expect(second.headers["Content-Type"] == "text/plain")
        let third = try client.send(method: "DELETE", path: "/c")
        #expect(third.status == 204)
        #expect(third.body.isEmpty)
        let seen = peer.requests.withLock { $0 }
        #expect(seen.count == 3)
        #expect(seen.first?.hasPrefix("GET /a HTTP/1.1\r\nHost: 127.0.0.1:\(peer.port)\r\nX-Request-Id: r1\r\n") == true)
        #expect(seen.dropFirst().first?.contains("Content-Length: 3\r\n") == true)
    }

    /// A server that refuses a body on its declared length answers and closes before the
    /// body is sent: the client reports that answer, not the failed send.
    @Test func anAnswerBeforeTheBodyIsSentIsReported() throws {
        for _ in 0..<10 {
            let peer = try ScriptedPeer(replies: ["HTTP/1.1 413 Content Too Large\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno"])
            let client = try HTTPClient(host: "127.0.0.1", port: peer.port, timeout: 5)
            let r = try client.send(method: "POST", path: "/big", body: [UInt8](repeating: 0x20, count: 8 << 20))
            #expect(r.status == 413 && r.body == Array("no".utf8))
        }
    }

    @Test func refusedConnectionsAndTimeoutsHaveCodes() throws {
        let peer = try ScriptedPeer(replies: [])
        let port = peer.port
        withExtendedLifetime(peer) {}
        // The peer accepts and closes without answering.
        let silent = try HTTPClient(host: "127.0.0.1", port: port, timeout: 1)
        #expect { try silent.send(method: "GET", path: "/") } throws: { ($0 as? HTTPClientError)?.code == .connectionClosed }
        let listener = try ScriptedPeer(replies: ["HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort"], linger: 1.5)
        let slow = try HTTPClient(host: "127.0.0.1", port: listener.port, timeout: 0.5)
        #expect { try slow.send(method: "GET", path: "/") } throws: { ($0 as? HTTPClientError)?.code == .timeout }
    }
}
