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
enum StrictBase64 {
    enum Alphabet { case url, standard }

    static func decode(_ input: UnsafeBufferPointer<UInt8>, _ alphabet: Alphabet) -> [UInt8]? {
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

    static func decode(_ text: String, _ alphabet: Alphabet) -> [UInt8]? {
        if let result = text.utf8.withContiguousStorageIfAvailable({ decode($0, alphabet) }) { return result }
        return Array(text.utf8).withUnsafeBufferPointer { decode($0, alphabet) }
    }

    private static let urlTable = table(extra62: "-", extra63: "_")
    private static let standardTable = table(extra62: "+", extra63: "/")

    private static func table(extra62: Unicode.Scalar, extra63: Unicode.Scalar) -> [UInt8] {
        var table = [UInt8](repeating: 0xFF, count: 256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
            + [UInt8(ascii: extra62), UInt8(ascii: extra63)]
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }
}
