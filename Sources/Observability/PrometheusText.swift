/// The lexical rules of the Prometheus text exposition format 0.0.4.
public enum PrometheusText {
    /// Escapes a label value: backslash, double quote and line feed.
    public static func escapeLabelValue(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// Escapes `# HELP` text: backslash and line feed (quotes are literal there).
    public static func escapeHelp(_ help: String) -> String {
        var out = ""
        for character in help.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A sample value: integers without a fraction, `+Inf`, `-Inf` and `NaN` spelled as
    /// Prometheus spells them, other numbers in their shortest round-tripping form.
    public static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return String(value)
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*`
    public static func isValidMetricName(_ name: String) -> Bool {
        isIdentifier(name, extra: UInt8(ascii: ":"))
    }

    /// `[a-zA-Z_][a-zA-Z0-9_]*`, and not starting with `__` (reserved by Prometheus).
    public static func isValidLabelName(_ name: String) -> Bool {
        isIdentifier(name, extra: nil) && !name.hasPrefix("__")
    }

    private static func isIdentifier(_ name: String, extra: UInt8?) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first else { return false }
        func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == extra }
        return isLetter(first) && bytes.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// `{a="x",b="y"}`, or nothing when there are no labels.
    static func labelSet(_ names: [String], _ values: [String]) -> String {
        guard !names.isEmpty else { return "" }
        var out = "{"
        for (index, (name, value)) in zip(names, values).enumerated() {
            if index > 0 { out += "," }
            out += name + "=\"" + escapeLabelValue(value) + "\""
        }
        return out + "}"
    }

    /// A stable order for series: lexicographic by label values.
    static func labelOrder(_ lhs: [String], _ rhs: [String]) -> Bool {
        lhs.lexicographicallyPrecedes(rhs)
    }
}
