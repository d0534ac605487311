import Crypto

/// Request ids: the client's own when it is safe to echo and log, otherwise a new UUID.
public enum RequestID {
    /// `[A-Za-z0-9._:-]{1,128}`: enough for UUIDs, ULIDs and trace ids, and nothing that
    /// could break a log line or a header.
    public static func isValid(_ candidate: String) -> Bool {
        let bytes = candidate.utf8
        guard (1...128).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: ":"), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }

    /// A fresh random id (a lower-case version 4 UUID) from OpenSSL's generator:
    /// Foundation's `UUID()` opens and reads `/dev/urandom` each time, three system calls
    /// on the network thread for every request.
    public static func generate() -> String {
        var b = SecureRandom.bytes(16)
        b[6] = (b[6] & 0x0f) | 0x40
        b[8] = (b[8] & 0x3f) | 0x80
        let hex = Array(Hex.encode(b).utf8)
        return String(unsafeUninitializedCapacity: 36) { out in
            var o = 0
            for (i, digit) in hex.enumerated() {
                if i == 8 || i == 12 || i == 16 || i == 20 { out[o] = UInt8(ascii: "-"); o += 1 }
                out[o] = digit
                o += 1
            }
            return o
        }
    }
}
