import LedgerCLI
import Observability

/// The in-process server's log sink: request lines (info) are formatted, as in production,
/// but dropped, so that thousands of them do not bury the benchmark's own output;
/// warnings and errors still reach standard error.
struct BenchLogSink: LogSink {
    private let forward = StandardErrorLogSink()

    func write(line: String) {
        // `level` follows the fixed-width `ts` (Logger+Line): its value starts at byte 42.
        // Compared as bytes, since this runs on every request the benchmark makes.
        let head = line.utf8.dropFirst(31).prefix(16)
        if head.elementsEqual(#"","level":"info""#.utf8) || head.starts(with: #"","level":"debug"#.utf8) { return }
        forward.write(line: line)
    }
}
