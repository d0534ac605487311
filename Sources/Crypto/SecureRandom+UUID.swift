import Foundation

extension SecureRandom {
    /// A random (version 4) UUID from OpenSSL's generator.
    ///
    /// Foundation's `UUID()` on Linux opens and reads `/dev/urandom` for every UUID: three
    /// system calls, which on the append path cost more than hashing the event.
    public static func uuid() -> UUID {
        uuid(version: 4, bytes(16))
    }

    /// A time-ordered (version 7, RFC 9562 §5.7) UUID: the Unix time in milliseconds in
    /// the first 48 bits, then 74 random bits. Ids made one after another sort nearly in
    /// the order they were made, so a B-tree over them grows at its right edge instead of
    /// splitting pages all over (the log's unique index on `event_id`).
    public static func timeOrderedUUID(unixMilliseconds: UInt64 = currentUnixMilliseconds()) -> UUID {
        var b = bytes(16)
        for i in 0..<6 { b[i] = UInt8(truncatingIfNeeded: unixMilliseconds >> (40 - 8 * UInt64(i))) }
        return uuid(version: 7, b)
    }

    /// The 16 bytes as a UUID of `version`, with RFC 9562's variant bits.
    private static func uuid(version: UInt8, _ bytes: [UInt8]) -> UUID {
        var b = bytes
        b[6] = (b[6] & 0x0f) | (version << 4)
        b[8] = (b[8] & 0x3f) | 0x80
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    public static func currentUnixMilliseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec) / 1_000_000
    }
}
