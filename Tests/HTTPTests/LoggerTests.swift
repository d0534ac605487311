import Foundation
import Testing
import TestSupport
@testable import Observability

#if canImport(Glibc)
import Glibc
#endif

@Suite("Logger", .bounded)
struct LoggerTests {
    static let pinned = Date(timeIntervalSince1970: 1_700_000_000.123)

    func decode(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func writesOneJSONObjectWithTimestampLevelMessageAndFields() throws {
        let sink = MemoryLogSink()
        let logger = Logger(minimumLevel: .debug, sink: sink, now: { Self.pinned })
        logger.info("request", ["status": 200, "path": "/v1/x", "ok": true, "ms": 1.5])
        let line = try #require(sink.lines.first)
        #expect(sink.lines.count == 1)
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix(#"{"ts":"2023-11-14T22:13:20.123Z","level":"info","msg":"request","status":200,"path":"/v1/x","ok":true,"ms":1.5}"#))
        let object = try decode(line)
        #expect(object["status"] as? Int == 200)
        #expect(object["ok"] as? Bool == true)
    }

    @Test func dropsLinesBelowTheMinimumLevel() {
        let sink = MemoryLogSink()
        let logger = Logger(minimumLevel: .warning, sink: sink)
        logger.debug("a")
        logger.info("b")
        logger.warning("c")
        logger.error("d")
        #expect(sink.lines.count == 2)
        #expect(sink.lines.allSatisfy { $0.contains(#""level":"warning""#) || $0.contains(#""level":"error""#) })
    }

    @Test func parsesLevelNames() {
        #expect(Logger.Level(parsing: "debug") == .debug)
        #expect(Logger.Level(parsing: " INFO ") == .info)
        #expect(Logger.Level(parsing: "warn") == .warning)
        #expect(Logger.Level(parsing: "warning") == .warning)
        #expect(Logger.Level(parsing: "Error") == .error)
        #expect(Logger.Level(parsing: "verbose") == nil)
        #expect(Logger.Level(parsing: "") == nil)
        #expect(Logger.Level.debug < .info && Logger.Level.warning < .error)
    }

    @Test func escapesStringsAndRenamesReservedKeys() throws {
        let sink = MemoryLogSink()
        let logger = Logger(sink: sink).with(["component": "http"])
        logger.info("quote \" backslash \\ newline \n tab \t bell \u{7} é", ["msg": "shadow", "ts": 1, "nan": .double(.nan)])
        let object = try decode(try #require(sink.lines.first))
        #expect(object["msg"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{7} é")
        #expect(object["field_msg"] as? String == "shadow")
        #expect(object["field_ts"] as? Int == 1)
        #expect(object["component"] as? String == "http")
        #expect(object["nan"] as? String == "nan")
    }

    @Test func timestampsAreUTCWithMilliseconds() {
        let sink = MemoryLogSink()
        for (seconds, expected) in [
            (0.0, "1970-01-01T00:00:00.000Z"), (951_782_400.5, "2000-02-29T00:00:00.500Z"),
            (-0.001, "1969-12-31T23:59:59.999Z"), (4_102_444_799.999, "2099-12-31T23:59:59.999Z"),
        ] {
            sink.removeAll()
            Logger(sink: sink, now: { Date(timeIntervalSince1970: seconds) }).info("x")
            #expect(sink.lines.first?.hasPrefix(#"{"ts":"\#(expected)""#) == true, "\(seconds)")
        }
    }

    @Test func concurrentLinesNeverInterleave() throws {
        let sink = MemoryLogSink()
        let logger = Logger(sink: sink)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<200 { logger.info("line", ["thread": .int(thread), "index": .int(index), "pad": .string(String(repeating: "p", count: 300))]) }
        }
        #expect(sink.lines.count == 1600)
        for line in sink.lines { _ = try decode(line) }
    }

    @Test func standardErrorSinkWritesWholeLines() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let sink = StandardErrorLogSink(descriptor: ends[1])
        let logger = Logger(sink: sink)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for _ in 0..<10 { logger.info("piped", ["index": .int(index), "pad": .string(String(repeating: "z", count: 100))]) }
        }
        close(ends[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 40)
        for line in lines { _ = try decode(String(line)) }
    }
}
