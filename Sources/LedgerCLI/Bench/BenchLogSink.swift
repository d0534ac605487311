import Observability

/// The in-process server's log sink: request lines (info) are formatted, as in production,
/// but dropped, so that thousands of them do not bury the benchmark's own output;
/// warnings and errors still reach standard error.
struct BenchLogSink: LogSink {
    private let forward = StandardErrorLogSink()

    func write(line: String) {
        // `level` follows the fixed-width `ts` (Logger+Line), so the line's head is enough.
        let head = String(decoding: line.utf8.prefix(64), as: UTF8.self)
        if head.contains(#""level":"info""#) || head.contains(#""level":"debug""#) { return }
        forward.write(line: line)
    }
}
