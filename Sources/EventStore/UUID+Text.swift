import Crypto
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
        let utf8 = text.utf8
        guard utf8.count == 36 else { return nil }
        var digits: [UInt8] = []
        digits.reserveCapacity(32)
        for (i, c) in utf8.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard c == UInt8(ascii: "-") else { return nil }
            } else {
                digits.append(c)
            }
        }
        guard let b = Hex.decode(String(decoding: digits, as: UTF8.self)), b.count == 16 else { return nil }
        self.init(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
