extension Logger {
    /// Severity, ordered: `debug < info < warning < error`.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        case debug = 0
        case info = 1
        case warning = 2
        case error = 3

        /// Parses a configured level name ("debug", "info", "warning" or "warn", "error"),
        /// ignoring case and surrounding blanks; `nil` for anything else.
        public init?(parsing text: String) {
            switch text.trimmingBlanks().lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }

        /// The name written in the `level` field.
        public var description: String {
            switch self {
            case .debug: return "debug"
            case .info: return "info"
            case .warning: return "warning"
            case .error: return "error"
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool {
            lhs.rawValue < rhs.rawValue
        }
    }
}

extension String {
    fileprivate func trimmingBlanks() -> Substring {
        let blanks: Set<Character> = [" ", "\t", "\n", "\r"]
        var slice = self[...]
        while let first = slice.first, blanks.contains(first) { slice.removeFirst() }
        while let last = slice.last, blanks.contains(last) { slice.removeLast() }
        return slice
    }
}
