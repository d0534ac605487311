/// What an append expects of a stream before it writes (optimistic concurrency).
public enum ExpectedVersion: Sendable, Hashable, CustomStringConvertible {
    /// No check.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream must exist.
    case streamExists
    /// The stream's last event must have exactly this version (0 means no stream).
    case exactly(Int64)

    /// Whether a stream at `current` (0: no stream) satisfies the expectation.
    public func admits(current: Int64) -> Bool {
        switch self {
        case .any: return true
        case .noStream: return current == 0
        case .streamExists: return current > 0
        case .exactly(let v): return current == v
        }
    }

    public var description: String {
        switch self {
        case .any: return "any"
        case .noStream: return "no stream"
        case .streamExists: return "an existing stream"
        case .exactly(let v): return "version \(v)"
        }
    }
}
