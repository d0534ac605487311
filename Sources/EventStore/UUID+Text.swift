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
