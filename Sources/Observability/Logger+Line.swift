import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Logger {
    /// Names the line itself uses; a field with one of these names is written as
    /// `field_<name>` so that every line stays an object with unique keys.
    static let reservedKeys: Set<String> = ["ts", "level", "msg"]

    /// Formats one line: `{"ts":…,"level":…,"msg":…,<fields>}` without a newline.
    static func line(at instant: Date, level: Level, message: String, fields: [(key: String, value: LogValue)]) -> String {
        var out = "{\"ts\":\""
        out += rfc3339UTCMilliseconds(instant)
        out += "\",\"level\":\""
        out += level.description
        out += "\",\"msg\":"
        appendJSONString(message, to: &out)
        for (key, value) in fields {
            out += ","
            appendJSONString(reservedKeys.contains(key) ? "field_" + key : key, to: &out)
            out += ":"
            appendJSONValue(value, to: &out)
        }
        out += "}"
        return out
    }

    /// `2025-05-20T09:04:05.123Z`; formatted by hand because `DateFormatter` is costly and
    /// its thread safety has varied across Foundation versions.
    static func rfc3339UTCMilliseconds(_ instant: Date) -> String {
        // Rounded to the microsecond first: a Double holding ".123" may be ".12299999…",
        // which would otherwise truncate to the wrong millisecond.
        let totalMicroseconds = Int64((instant.timeIntervalSince1970 * 1_000_000).rounded())
        let totalMilliseconds = totalMicroseconds.floorDivided(by: 1000)
        var seconds = time_t(totalMilliseconds.floorDivided(by: 1000))
        let milliseconds = Int(totalMilliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return padded(Int(parts.tm_year) + 1900, 4) + "-" + padded(Int(parts.tm_mon) + 1, 2) + "-"
            + padded(Int(parts.tm_mday), 2) + "T" + padded(Int(parts.tm_hour), 2) + ":"
            + padded(Int(parts.tm_min), 2) + ":" + padded(Int(parts.tm_sec), 2) + "."
            + padded(milliseconds, 3) + "Z"
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    private static func appendJSONValue(_ value: LogValue, to out: inout String) {
        switch value {
        case .string(let s): appendJSONString(s, to: &out)
        case .int(let n): out += String(n)
        case .bool(let b): out += b ? "true" : "false"
        case .double(let d):
            // JSON has no NaN or infinities; writing them as text keeps the line parseable.
            if d.isFinite { out += String(d) } else { appendJSONString(String(d), to: &out) }
        }
    }

    static func appendJSONString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension Int64 {
    /// Division rounding towards negative infinity, so instants before 1970 keep
    /// non-negative milliseconds.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
