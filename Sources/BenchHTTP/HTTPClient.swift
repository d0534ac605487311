import HTTP
#if canImport(Glibc)
import Glibc
#endif

/// A small blocking HTTP/1.1 client over one keep-alive connection, for benchmarks and
/// end-to-end tests. Not for concurrent use: give each thread its own client.
///
/// Reads `Content-Length` and chunked bodies; reconnects when the server closed the
/// connection (after `Connection: close`, or an idle timeout noticed on the next send).
public final class HTTPClient {
    public let host: String
    public let port: Int
    /// Seconds to wait for a connection, and for each read or write.
    public let timeout: Double
    private var connection: ClientSocket?
    /// Whether the current connection has already carried a complete exchange, i.e. it
    /// may have been closed by the server while idle.
    private var connectionWasUsed = false
    private var received: [UInt8] = []

    /// Connects right away, so that a refused connection shows here.
    public init(host: String, port: Int, timeout: Double = 10) throws {
        self.host = host
        self.port = port
        self.timeout = timeout
        connection = try ClientSocket(host: host, port: port, timeout: timeout)
    }

    /// Sends one request and reads its response. `Host` (the address connected to, unless
    /// `hostField` gives another) and `Content-Length` are added.
    public func send(
        method: String, path: String, headers: [(String, String)] = [], body: [UInt8] = [], hostField: String? = nil
    ) throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(hostField ?? "\(host):\(port)")\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        let request = Array(head.utf8) + body
        let reused = connection != nil && connectionWasUsed
        do {
            return try exchange(request, method: method)
        } catch let error as HTTPClientError where reused && (error.code == .connectionClosed || error.code == .sendFailed) && received.isEmpty {
            // The server dropped the idle connection; one fresh attempt is safe because
            // nothing of a response was seen.
            disconnect()
            return try exchange(request, method: method)
        }
    }

    /// Closes the connection; the next `send` opens a new one.
    public func disconnect() {
        connection = nil
        connectionWasUsed = false
        received = []
    }

    private func exchange(_ request: [UInt8], method: String) throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        if connection == nil { connection = try ClientSocket(host: host, port: port, timeout: timeout) }
        guard let socket = connection else { throw HTTPClientError(code: .connectFailed, message: "no connection") }
        received = []
        var unsent: HTTPClientError?
        do {
            try socket.write(request)
        } catch let error as HTTPClientError where error.code == .sendFailed {
            // A server may answer before it has read the whole request (a 413 on the
            // declared length) and close: that answer is still in the receive queue.
            unsent = error
        }
        while true {
            let head: (status: Int, headers: HTTPHeaders)
            do {
                head = try readHead(socket)
            } catch {
                throw unsent ?? error
            }
            guard head.status >= 200 else { continue }  // 100 Continue and other interim responses
            let body = try readBody(socket, head: head, method: method)
            connectionWasUsed = true
            if unsent != nil || head.headers["Connection"]?.lowercased() == "close" { disconnect() }
            return (head.status, head.headers, body)
        }
    }

    private func readHead(_ socket: ClientSocket) throws -> (status: Int, headers: HTTPHeaders) {
        var end: Int?
        while true {
            end = Self.headerEnd(received)
            if end != nil { break }
            try fill(socket)
        }
        // Parsed as bytes, line by line at each CR LF: the benchmarks run this client beside
        // the server they measure, so what it spends is taken from the server.
        let head = try received.withUnsafeBufferPointer { bytes -> (Int, HTTPHeaders) in
            let head = UnsafeBufferPointer(rebasing: bytes[..<end!])
            var lineStart = 0
            var status: Int?
            var headers = HTTPHeaders()
            while lineStart <= head.count {
                var lineEnd = lineStart
                while lineEnd + 1 < head.count && !(head[lineEnd] == 0x0D && head[lineEnd + 1] == 0x0A) { lineEnd += 1 }
                if lineEnd + 1 >= head.count { lineEnd = head.count }
                let line = UnsafeBufferPointer(rebasing: head[lineStart..<lineEnd])
                if status == nil {
                    status = try Self.parseStatusLine(line)
                } else if !line.isEmpty {
                    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                        throw HTTPClientError(code: .malformedResponse, message: "bad header line")
                    }
                    headers.add(name: String(decoding: UnsafeBufferPointer(rebasing: line[..<colon]), as: UTF8.self),
                                value: Self.trimmed(UnsafeBufferPointer(rebasing: line[(colon + 1)...])))
                }
                lineStart = lineEnd + 2
            }
            guard let status else { throw HTTPClientError(code: .malformedResponse, message: "bad status line") }
            return (status, headers)
        }
        received.removeFirst(end! + 4)
        return head
    }

    /// `HTTP/1.x SSS[ reason]`: the status.
    private static func parseStatusLine(_ line: UnsafeBufferPointer<UInt8>) throws -> Int {
        let prefix = Array("HTTP/1.".utf8)
        let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].starts(with: prefix),
              let status = Int(String(decoding: parts[1], as: UTF8.self)) else {
            throw HTTPClientError(code: .malformedResponse, message: "bad status line")
        }
        return status
    }

    /// The text of `bytes` without the spaces and tabs around it.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let isSpace = { (b: UInt8) in b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[first...last]), as: UTF8.self)
    }

    private func readBody(_ socket: ClientSocket, head: (status: Int, headers: HTTPHeaders), method: String) throws -> [UInt8] {
        if method == "HEAD" || head.status == 204 || head.status == 304 { return [] }
        if head.headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            return try readChunked(socket)
        }
        if let lengthText = head.headers["Content-Length"] {
            guard let length = Int(lengthText), length >= 0 else {
                throw HTTPClientError(code: .malformedResponse, message: "bad Content-Length")
            }
            while received.count < length { try fill(socket) }
            defer { received.removeFirst(length) }
            return Array(received[..<length])
        }
        // Neither: the body runs to the end of the connection.
        while (try? fill(socket)) != nil {}
        defer { disconnect() }
        return received
    }

    private func readChunked(_ socket: ClientSocket) throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try readLine(socket)
            let sizeText = line.split(separator: ";").first.map { $0.trimmingSpaces() } ?? ""
            guard let size = Int(sizeText, radix: 16) else {
                throw HTTPClientError(code: .malformedResponse, message: "bad chunk size")
            }
            if size == 0 {
                while try !readLine(socket).isEmpty {}  // trailer fields
                return body
            }
            while received.count < size + 2 { try fill(socket) }
            body += received[..<size]
            received.removeFirst(size + 2)
        }
    }

    private func readLine(_ socket: ClientSocket) throws -> String {
        while true {
            if let index = Self.find([0x0D, 0x0A], in: received) {
                let line = String(decoding: received[..<index], as: UTF8.self)
                received.removeFirst(index + 2)
                return line
            }
            try fill(socket)
        }
    }

    private func fill(_ socket: ClientSocket) throws {
        received += try socket.read()
    }

    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        find([0x0D, 0x0A, 0x0D, 0x0A], in: bytes)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            var matches = true
            for k in 1..<needle.count where bytes[start + k] != needle[k] {
                matches = false
                break
            }
            if matches { return start }
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
