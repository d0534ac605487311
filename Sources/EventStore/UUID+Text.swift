import Foundation

extension UUID {
    /// The lowercase hyphenated form PostgreSQL prints (`uuid::text`), without the
    /// uppercase-then-lowercase round trip of `uuidString.lowercased()`.
    var lowercaseText: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var i = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[i] = UInt8(ascii: "-")
                        i += 1
                    }
                    out[i] = digits[Int(byte >> 4)]
                    out[i + 1] = digits[Int(byte & 0x0f)]
                    i += 2
                }
                return i
            }
        }
    }
}

extension UUID {
    /// Parses the hyphenated form (either case) without Foundation's `sscanf`-based parser,
    /// which dominated reading the log.
    init?(hyphenated text: String) {
        var text = text
        let parsed: uuid_t? = text.withUTF8 { utf8 in
            guard utf8.count == 36 else { return nil }
            var bytes = [UInt8](repeating: 0, count: 16)
            var i = 0, n = 0
            while i < 36 {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    guard utf8[i] == UInt8(ascii: "-") else { return nil }
                    i += 1
                    continue
                }
                guard let hi = Self.nibble(utf8[i]), let lo = Self.nibble(utf8[i + 1]) else { return nil }
                bytes[n] = hi << 4 | lo
                n += 1
                i += 2
            }
            return (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
