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
    ///
    /// Written into bytes rather than by appending to a `String` scalar by scalar: every
    /// request logs a line, and the string version cost as much as encoding the answer.
    static func line(at instant: Date, level: Level, message: String, fields: [(key: String, value: LogValue)]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(320)
        out.append(contentsOf: #"{"ts":""#.utf8)
        appendRFC3339UTCMilliseconds(instant, to: &out)
        out.append(contentsOf: #"","level":""#.utf8)
        out.append(contentsOf: level.description.utf8)
        out.append(contentsOf: #"","msg":"#.utf8)
        appendJSONString(message, to: &out)
        for (key, value) in fields {
            out.append(UInt8(ascii: ","))
            if reservedKeys.contains(key) {
                appendJSONString("field_" + key, to: &out)
            } else {
                appendJSONString(key, to: &out)
            }
            out.append(UInt8(ascii: ":"))
            appendJSONValue(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `2025-05-20T09:04:05.123Z`; formatted by hand because `DateFormatter` is costly and
    /// its thread safety has varied across Foundation versions.
    private static func appendRFC3339UTCMilliseconds(_ instant: Date, to out: inout [UInt8]) {
        // Rounded to the microsecond first: a Double holding ".123" may be ".12299999…",
        // which would otherwise truncate to the wrong millisecond.
        let totalMicroseconds = Int64((instant.timeIntervalSince1970 * 1_000_000).rounded())
        let totalMilliseconds = totalMicroseconds.floorDivided(by: 1000)
        var seconds = time_t(totalMilliseconds.floorDivided(by: 1000))
        let milliseconds = Int(totalMilliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        appendPadded(Int(parts.tm_year) + 1900, 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(Int(parts.tm_mon) + 1, 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(Int(parts.tm_mday), 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendPadded(Int(parts.tm_hour), 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(Int(parts.tm_min), 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(Int(parts.tm_sec), 2, to: &out)
        out.append(UInt8(ascii: "."))
        appendPadded(milliseconds, 3, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// The decimal digits of a non-negative `value`, zero-padded to at least `width`.
    private static func appendPadded(_ value: Int, _ width: Int, to out: inout [UInt8]) {
        guard value >= 0 else {
            out.append(contentsOf: String(value).utf8)
            return
        }
        var digits = 1
        var scale = 1
        while value / scale >= 10 { scale *= 10; digits += 1 }
        for _ in digits..<max(width, digits) { out.append(UInt8(ascii: "0")) }
        while scale > 0 {
            out.append(UInt8(truncatingIfNeeded: 48 + (value / scale) % 10))
            scale /= 10
        }
    }

    private static func appendJSONValue(_ value: LogValue, to out: inout [UInt8]) {
        switch value {
        case .string(let s): appendJSONString(s, to: &out)
        case .int(let n): out.append(contentsOf: String(n).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .double(let d):
            // JSON has no NaN or infinities; writing them as text keeps the line parseable.
            if d.isFinite { out.append(contentsOf: String(d).utf8) } else { appendJSONString(String(d), to: &out) }
        }
    }

    /// `text` quoted: `"`, `\`, `\n`, `\r` and `\t` escaped, other controls as `\u00xx`,
    /// everything else (non-ASCII included) as its UTF-8.
    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
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
