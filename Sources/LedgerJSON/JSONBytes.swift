/// The byte-level pieces every writer shares: quoted strings and integers.
enum JSONBytes {
    /// Appends `s` as a JSON string the way PostgreSQL's `escape_json` writes it: `"` and
    /// `\` escaped, the five short escapes `\b \f \n \r \t`, every other byte below 0x20
    /// as `\u00xx` in lowercase hex, everything else (U+007F and all non-ASCII) as raw
    /// UTF-8. Returns whether `s` contains U+0000 (written as `\u0000`).
    @discardableResult
    static func appendQuoted(_ s: String, to out: inout ByteWriter) -> Bool {
        out.append(0x22)
        var sawNUL = false
        if let done = s.utf8.withContiguousStorageIfAvailable({ bytes in appendEscaped(bytes, to: &out) }) {
            sawNUL = done
        } else {
            sawNUL = Array(s.utf8).withUnsafeBufferPointer { appendEscaped($0, to: &out) }
        }
        out.append(0x22)
        return sawNUL
    }

    /// Appends UTF-8 bytes as a JSON string, escaped as `appendQuoted` escapes a string.
    /// The bytes must be valid UTF-8 (they are copied as they are).
    @discardableResult
    static func appendQuoted(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) -> Bool {
        out.append(0x22)
        let sawNUL = appendEscaped(bytes, to: &out)
        out.append(0x22)
        return sawNUL
    }

    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) -> Bool {
        guard let start = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(start)
        let n = bytes.count
        var sawNUL = false
        var runStart = 0
        var i = 0
        while i < n {
            // Most bytes need no escape: skip them eight at a time, and copy them in runs.
            while i + 8 <= n && !wordNeedsEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { i += 8 }
            let stop = min(i + 8, n)
            while i < stop {
                let b = start[i]
                if b >= 0x20 && b != 0x22 && b != 0x5C {
                    i += 1
                    continue
                }
                if runStart < i { out.append(UnsafeBufferPointer(start: start + runStart, count: i - runStart)) }
                switch b {
                case 0x22: out.append(0x5C, 0x22)
                case 0x5C: out.append(0x5C, 0x5C)
                case 0x08: out.append(0x5C, UInt8(ascii: "b"))
                case 0x0C: out.append(0x5C, UInt8(ascii: "f"))
                case 0x0A: out.append(0x5C, UInt8(ascii: "n"))
                case 0x0D: out.append(0x5C, UInt8(ascii: "r"))
                case 0x09: out.append(0x5C, UInt8(ascii: "t"))
                default:
                    if b == 0 { sawNUL = true }
                    out.reserve(6)
                    out.appendReserved(0x5C)
                    out.appendReserved(UInt8(ascii: "u"))
                    out.appendReserved(0x30)
                    out.appendReserved(0x30)
                    out.appendReserved(lowerHexDigit(b >> 4))
                    out.appendReserved(lowerHexDigit(b & 0x0F))
                }
                i += 1
                runStart = i
            }
        }
        if runStart < n { out.append(UnsafeBufferPointer(start: start + runStart, count: n - runStart)) }
        return sawNUL
    }

    /// Whether any of the eight bytes in `w` is below 0x20, a `"` or a `\`.
    @inline(__always)
    private static func wordNeedsEscape(_ w: UInt64) -> Bool {
        // The classic bit tricks: (x - 0x01…) & ~x & 0x80… is nonzero exactly when some
        // byte of x is zero; with 0x20… in place of 0x01…, when some byte is below 0x20.
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (w &- ones &* 0x20) & ~w & highs
        let q = w ^ (ones &* 0x22)
        let quote = (q &- ones) & ~q & highs
        let b = w ^ (ones &* 0x5C)
        let backslash = (b &- ones) & ~b & highs
        return control | quote | backslash != 0
    }

    @inline(__always)
    private static func lowerHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x57 + nibble
    }

    /// Appends the decimal digits of `n`, as `numeric_out` (and `int8out`) print it.
    static func appendInteger(_ n: Int64, to out: inout ByteWriter) {
        // Digits come out last first: collect them at the end of a 20-byte window.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = n.magnitude
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(truncatingIfNeeded: 48 &+ magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if n < 0 { out.append(UInt8(ascii: "-")) }
            out.append(UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// Appends the UTF-8 of `s` unchanged.
    static func appendRaw(_ s: String, to out: inout ByteWriter) {
        if s.utf8.withContiguousStorageIfAvailable({ out.append($0) }) == nil {
            Array(s.utf8).withUnsafeBufferPointer { out.append($0) }
        }
    }
}
