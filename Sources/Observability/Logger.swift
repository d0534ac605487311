import Foundation

/// A structured logger: one JSON object per line, with `ts` (RFC 3339 UTC, milliseconds),
/// `level` and `msg` first and the fields after them, in the order given.
///
/// A value type that is cheap to copy: `with(_:)` derives a logger that adds fields to
/// every line (e.g. the component), sharing the sink.
public struct Logger: Sendable {
    /// Lines below this level are dropped before anything is formatted.
    public var minimumLevel: Level
    public var sink: any LogSink
    /// Fields written on every line, before the fields of the call.
    public var baseFields: [(key: String, value: LogValue)]
    /// The clock for `ts`; replaceable so that tests can pin it.
    public var now: @Sendable () -> Date

    public init(
        minimumLevel: Level = .info,
        sink: any LogSink = StandardErrorLogSink(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.minimumLevel = minimumLevel
        self.sink = sink
        self.baseFields = []
        self.now = now
    }

    /// A logger that writes `fields` on every line, after this logger's own base fields.
    public func with(_ fields: KeyValuePairs<String, LogValue>) -> Logger {
        var copy = self
        copy.baseFields.append(contentsOf: fields.map { (key: $0.key, value: $0.value) })
        return copy
    }

    /// Whether a line at `level` would be written; lets callers skip building costly fields.
    public func isEnabled(_ level: Level) -> Bool {
        level >= minimumLevel
    }

    public func log(_ level: Level, _ message: String, fields: [(key: String, value: LogValue)]) {
        guard isEnabled(level) else { return }
        sink.write(line: Self.line(at: now(), level: level, message: message, fields: baseFields + fields))
    }

    public func debug(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.debug, message, fields: fields.map { (key: $0.key, value: $0.value) })
    }

    public func info(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.info, message, fields: fields.map { (key: $0.key, value: $0.value) })
    }

    public func warning(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.warning, message, fields: fields.map { (key: $0.key, value: $0.value) })
    }

    public func error(_ message: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        log(.error, message, fields: fields.map { (key: $0.key, value: $0.value) })
    }
}
