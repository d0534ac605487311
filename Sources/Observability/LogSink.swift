/// Where a `Logger` sends its lines.
///
/// `write` receives one complete line (a JSON object, without the trailing newline) and
/// must emit it as a unit, so that lines from concurrent threads never interleave.
public protocol LogSink: Sendable {
    func write(line: String)
}
