import Foundation
import Observability
import Synchronization
import TestSupport
@testable import HTTP
@testable import BenchHTTP

/// A real server on an ephemeral loopback port with an in-memory log, for end-to-end tests.
final class TestServer: Sendable {
    let server: HTTPServer
    let sink = MemoryLogSink()
    let metrics = MetricsRegistry()
    let configuration: HTTPServerConfiguration

    init(configuration: HTTPServerConfiguration = TestServer.defaultConfiguration, _ build: (inout Router) -> Void) throws {
        var router = Router()
        build(&router)
        self.configuration = configuration
        server = HTTPServer(configuration: configuration, router: router, logger: Logger(minimumLevel: .debug, sink: sink), metrics: metrics)
        try server.start()
    }

    static var defaultConfiguration: HTTPServerConfiguration {
        HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 4, connectionTimeoutSeconds: 5)
    }

    var port: Int { server.port }

    func client(timeout: Double = 10) throws -> HTTPClient {
        try HTTPClient(host: "127.0.0.1", port: port, timeout: timeout)
    }

    func raw(timeout: Double = 10) throws -> RawConnection {
        try RawConnection(port: port, timeout: timeout)
    }

    /// The decoded log lines whose `msg` is `message`, waiting briefly because the line is
    /// written after the last byte of the response has gone out.
    func logLines(_ message: String = "request", atLeast count: Int = 1) -> [[String: Any]] {
        func lines() -> [[String: Any]] {
            sink.lines.compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }.filter { $0["msg"] as? String == message }
        }
        Poll.until(timeout: 3) { lines().count >= count }
        return lines()
    }

    func stop() {
        server.shutdown(gracePeriod: 1)
    }
}

/// A raw TCP connection, for requests no well-behaved client would send.
final class RawConnection {
    private let socket: ClientSocket

    init(port: Int, timeout: Double) throws {
        socket = try ClientSocket(host: "127.0.0.1", port: port, timeout: timeout)
    }

    func write(_ text: String) throws { try socket.write(Array(text.utf8)) }
    func write(_ bytes: [UInt8]) throws { try socket.write(bytes) }

    /// Everything until the server closes the connection (or the timeout passes).
    func readToEnd() -> String { readUntilClosed().text }

    /// Everything until the server closes the connection, and whether it did (false: the
    /// timeout passed first, or the read failed otherwise).
    func readUntilClosed() -> (text: String, closed: Bool) {
        var bytes: [UInt8] = []
        while true {
            do {
                bytes += try socket.read()
            } catch let error as HTTPClientError {
                return (String(decoding: bytes, as: UTF8.self), error.code == .connectionClosed)
            } catch {
                return (String(decoding: bytes, as: UTF8.self), false)
            }
        }
    }

    /// Reads until `marker` has been seen (or the connection ends).
    func read(until marker: String) -> String {
        var bytes: [UInt8] = []
        while !String(decoding: bytes, as: UTF8.self).contains(marker), let chunk = try? socket.read() { bytes += chunk }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the server has closed the connection: a read ends without data.
    func isClosedByServer() -> Bool {
        do {
            _ = try socket.read()
            return false
        } catch let error as HTTPClientError {
            return error.code == .connectionClosed
        } catch {
            return false
        }
    }
}

/// The status code and body of a raw response text.
func parseRawResponse(_ text: String) -> (status: Int, headers: HTTPHeaders, body: String)? {
    guard let split = text.range(of: "\r\n\r\n") else { return nil }
    var lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
    let statusParts = lines.removeFirst().split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
    var headers = HTTPHeaders()
    for line in lines {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers.add(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    return (status, headers, String(text[split.upperBound...]))
}

/// Decodes a JSON object body.
func jsonObject(_ body: [UInt8]) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
}

func jsonObject(_ body: String) -> [String: Any]? {
    jsonObject(Array(body.utf8))
}
