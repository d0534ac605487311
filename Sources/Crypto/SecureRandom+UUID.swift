import Foundation

extension SecureRandom {
    /// A random (version 4) UUID from OpenSSL's generator.
    ///
    /// Foundation's `UUID()` on Linux opens and reads `/dev/urandom` for every UUID: three
    /// system calls, which on the append path cost more than hashing the event.
    public static func uuid() -> UUID {
        var b = bytes(16)
        b[6] = (b[6] & 0x0f) | 0x40
        b[8] = (b[8] & 0x3f) | 0x80
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}
