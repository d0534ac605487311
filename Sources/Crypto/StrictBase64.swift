/// Base64 decoding that accepts exactly one text per byte string, fast enough to run over
/// every token on the verification path.
///
/// - `.url` (RFC 4648 §5, the JWS parts): `-` and `_`, **no padding** — RFC 7515 §2
///   defines base64url without it and Apple writes none, so `=` is refused rather than
///   giving one token two spellings.
/// - `.standard` (RFC 4648 §4, the `x5c` certificates, RFC 7515 §4.1.6): `+` and `/`,
///   padded with `=` to a multiple of four.
///
/// Either way the unused low bits of the last character must be zero, and whitespace or
/// any other byte is refused.
public enum StrictBase64 {
    public enum Alphabet: Sendable { case url, standard }

    public static func decode(_ input: UnsafeBufferPointer<UInt8>, _ alphabet: Alphabet) -> [UInt8]? {
        var length = input.count
        if alphabet == .standard {
            guard length % 4 == 0 else { return nil }
            // At most two `=`, only at the end; the table refuses `=` anywhere else.
            if length > 0, input[length - 1] == UInt8(ascii: "=") { length -= 1 }
            if length > 0, input[length - 1] == UInt8(ascii: "=") { length -= 1 }
        }
        let tail = length % 4
        guard tail != 1 else { return nil }
        let quads = length / 4
        let outputCount = quads * 3 + (tail == 0 ? 0 : tail - 1)
        let table = alphabet == .url ? urlTable : standardTable
        var valid = false
        let output = table.withUnsafeBufferPointer { t in
            [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
                // Valid values are below 64; the invalid marker 0xFF sets the top bits,
                // so one OR over everything finds any bad byte without a branch per byte.
                var seen: UInt8 = 0
                var i = 0
                var o = 0
                for _ in 0..<quads {
                    let a = t[Int(input[i])], b = t[Int(input[i + 1])], c = t[Int(input[i + 2])], d = t[Int(input[i + 3])]
                    seen |= a | b | c | d
                    let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[o] = UInt8(truncatingIfNeeded: v >> 16)
                    out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    out[o + 2] = UInt8(truncatingIfNeeded: v)
                    i += 4
                    o += 3
                }
                var canonical = true
                if tail == 2 {
                    let a = t[Int(input[i])], b = t[Int(input[i + 1])]
                    seen |= a | b
                    canonical = b & 0x0F == 0
                    out[o] = a << 2 | b >> 4
                } else if tail == 3 {
                    let a = t[Int(input[i])], b = t[Int(input[i + 1])], c = t[Int(input[i + 2])]
                    seen |= a | b | c
                    canonical = c & 0x03 == 0
                    out[o] = a << 2 | b >> 4
                    out[o + 1] = b << 4 | c >> 2
                }
                // Every output byte is written whatever the input, so the buffer is
                // initialized even when the result is thrown away.
                initialized = outputCount
                valid = seen & 0xC0 == 0 && canonical
            }
        }
        return valid ? output : nil
    }

    public static func decode(_ text: String, _ alphabet: Alphabet) -> [UInt8]? {
        if let result = text.utf8.withContiguousStorageIfAvailable({ decode($0, alphabet) }) { return result }
        return Array(text.utf8).withUnsafeBufferPointer { decode($0, alphabet) }
    }

    /// The text of `bytes`: `.url` without padding, `.standard` padded to a multiple of four.
    public static func encode(_ bytes: [UInt8], _ alphabet: Alphabet) -> String {
        let symbols = alphabet == .url ? urlSymbols : standardSymbols
        let padded = alphabet == .standard
        let quads = bytes.count / 3
        let tail = bytes.count % 3
        let length = quads * 4 + (tail == 0 ? 0 : (padded ? 4 : tail + 1))
        return String(unsafeUninitializedCapacity: length) { out in
            symbols.withUnsafeBufferPointer { s in
                bytes.withUnsafeBufferPointer { b in
                    var i = 0
                    var o = 0
                    for _ in 0..<quads {
                        let v = UInt32(b[i]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2])
                        out[o] = s[Int(v >> 18)]
                        out[o + 1] = s[Int(v >> 12 & 0x3F)]
                        out[o + 2] = s[Int(v >> 6 & 0x3F)]
                        out[o + 3] = s[Int(v & 0x3F)]
                        i += 3
                        o += 4
                    }
                    if tail > 0 {
                        let v = UInt32(b[i]) << 16 | (tail == 2 ? UInt32(b[i + 1]) << 8 : 0)
                        out[o] = s[Int(v >> 18)]
                        out[o + 1] = s[Int(v >> 12 & 0x3F)]
                        o += 2
                        if tail == 2 { out[o] = s[Int(v >> 6 & 0x3F)]; o += 1 }
                        if padded {
                            while o % 4 != 0 { out[o] = UInt8(ascii: "="); o += 1 }
                        }
                    }
                }
            }
            return length
        }
    }

    private static let urlSymbols = symbols(extra62: "-", extra63: "_")
    private static let standardSymbols = symbols(extra62: "+", extra63: "/")

    private static func symbols(extra62: Unicode.Scalar, extra63: Unicode.Scalar) -> [UInt8] {
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8) + [UInt8(ascii: extra62), UInt8(ascii: extra63)]
    }

    private static let urlTable = table(extra62: "-", extra63: "_")
    private static let standardTable = table(extra62: "+", extra63: "/")

    private static func table(extra62: Unicode.Scalar, extra63: Unicode.Scalar) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in symbols(extra62: extra62, extra63: extra63).enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }
}
