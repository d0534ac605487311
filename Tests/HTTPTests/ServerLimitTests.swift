import Foundation
import Testing
import TestSupport
@testable import HTTP

@Suite("Server: limits", .bounded)
struct ServerLimitTests {
    static let limits = HTTPServerConfiguration(
        host: "127.0.0.1", port: 0, threads: 2, maxBodyBytes: 4096, maxHeaderBytes: 2048,
        connectionTimeoutSeconds: 1, maxConnections: 3)

    static func makeServer(_ configuration: HTTPServerConfiguration = limits) throws -> TestServer {
        try TestServer(configuration: configuration) { router in
            router.add("POST", "/echo") { request in
                HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: request.body)
            }
            router.add("GET", "/hello") { _ in .text("hello") }
        }
    }

    @Test func bodyOverLimitByContentLengthIs413BeforeReading() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let raw = try server.raw()
        try raw.write("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\n\r\n")
        let text = raw.readToEnd()
        let response = try #require(parseRawResponse(text))
        #expect(response.status == 413)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(jsonObject(response.body)?["code"] as? String == "payload_too_large")
    }

    @Test func chunkedBodyGrowingPastLimitIs413() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let raw = try server.raw()
        var request = "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
        for _ in 0..<6 { request += "400\r\n" + String(repeating: "x", count: 1024) + "\r\n" }
        request += "0\r\n\r\n"
        try raw.write(request)
        let text = raw.readToEnd()
        let response = try #require(parseRawResponse(text))
        #expect(response.status == 413)
        #expect(jsonObject(response.body)?["code"] as? String == "payload_too_large")
    }

    @Test func endlessChunkedBodyIsCut() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let raw = try server.raw()
        try raw.write("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
        var writes = 0
        let chunk = "400\r\n" + String(repeating: "y", count: 1024) + "\r\n"
        while writes < 200, (try? raw.write(chunk)) != nil { writes += 1 }
        let text = raw.readToEnd()
        // The 413 is written straight to the socket and the connection cut; whether the
        // client still reads it depends on how much it had in flight when the reset came.
        #expect(text.isEmpty || parseRawResponse(text)?.status == 413, "\(text.prefix(200))")
        let line = try #require(server.logLines().first)
        #expect(line["status"] as? Int == 413)
        #expect(line["termination"] as? String == "error")
        // Drained up to the allowance (the limit plus max(limit, 64 KiB)), then cut.
        #expect((line["bytes_in"] as? Int ?? 0) < 4096 + 65536 + 16384)
    }

    @Test func oversizedHeadersAre431() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        // Over the limit but within libmicrohttpd's memory pool: our problem document.
        // Past the pool (2 × limit + 16 KiB): libmicrohttpd's own 431 with an HTML body.
        for (size, ours) in [(3000, true), (6000, true), (50_000, false), (200_000, false)] {
            let raw = try server.raw()
            try? raw.write("GET /hello HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "a", count: size))\r\n\r\n")
            let text = raw.readToEnd()
            let response = try #require(parseRawResponse(text), "\(size)")
            #expect(response.status == 431, "\(size)")
            #expect(response.headers["Connection"]?.lowercased() == "close")
            if ours {
                #expect(jsonObject(response.body)?["code"] as? String == "request_header_fields_too_large")
            }
        }
        let statuses = server.logLines(atLeast: 4).compactMap { $0["status"] as? Int }
        #expect(statuses == [431, 431, 431, 431])
    }

    @Test func oversizedURIIs414() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        // libmicrohttpd answers 414 itself when the request line alone overflows its pool.
        for (size, ours) in [(3000, true), (6000, true), (50_000, false)] {
            let raw = try server.raw()
            try? raw.write("GET /hello?\(String(repeating: "a", count: size)) HTTP/1.1\r\nHost: t\r\n\r\n")
            let text = raw.readToEnd()
            let response = try #require(parseRawResponse(text), "\(size)")
            #expect(response.status == 414, "\(size)")
            if ours {
                #expect(jsonObject(response.body)?["code"] as? String == "uri_too_long")
            }
        }
    }

    @Test func stalledBodyIs408() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let raw = try server.raw()
        let started = Date()
        try raw.write("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc")
        let text = raw.readToEnd()
        let waited = Date().timeIntervalSince(started)
        let response = try #require(parseRawResponse(text))
        #expect(response.status == 408)
        #expect(jsonObject(response.body)?["code"] as? String == "request_timeout")
        #expect(response.headers["X-Request-Id"] != nil)
        #expect(waited >= 0.9, "cut after \(waited) s, before its 1-second deadline")
    }

    @Test func stalledHeaderIs408() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let raw = try server.raw()
        try raw.write("GET /hello HTTP/1.1\r\nHost: t\r\n")
        let response = try #require(parseRawResponse(raw.readToEnd()))
        #expect(response.status == 408)
    }

    @Test func idleConnectionIsClosedSilently() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let raw = try server.raw()
        try raw.write("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = raw.read(until: "hello")
        let started = Date()
        let rest = raw.readToEnd()
        let waited = Date().timeIntervalSince(started)
        #expect(rest.isEmpty)
        #expect(waited >= 0.9, "cut after \(waited) s, before its 1-second deadline")
        #expect(server.logLines().count == 1)
    }

    @Test func connectionsOverLimitAreRefused() throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let held = try (0..<3).map { _ in try server.raw() }
        for connection in held { try connection.write("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n"); _ = connection.read(until: "hello") }
        let extra = try server.raw(timeout: 3)
        let response = try #require(parseRawResponse(extra.readToEnd()))
        #expect(response.status == 503)
        #expect(jsonObject(response.body)?["code"] as? String == "too_many_connections")
        withExtendedLifetime(held) {}
    }
}
