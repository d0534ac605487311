import Crypto
import Foundation

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
        SecureRandom.uuid().uuidString.lowercased()
    }
}
