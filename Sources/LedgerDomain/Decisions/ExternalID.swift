import Crypto

/// Ids chosen outside the ledger (Apple's transaction ids and notification UUIDs, an
/// app's user ids), in the forms the log can hold.
///
/// A verified payload is never refused for what its ids contain: stream names
/// and idempotency keys allow a narrow alphabet, and `jsonb` and `text` cannot hold
/// U+0000, so such ids are named by their SHA-256 where they do not fit. Both forms are
/// injective: a plain id never starts with `sha256=`, so it can never equal a digest.
public enum ExternalID {
    static let digestPrefix = "sha256="

    /// `id` as part of a stream name or an idempotency key: itself when it is 1–100
    /// characters of `A-Z a-z 0-9 . _ -` (Apple's numeric ids, UUIDs), otherwise
    /// `sha256=` and its hex SHA-256.
    public static func key(_ id: String) -> String {
        let u = id.utf8
        if (1...100).contains(u.count) && u.allSatisfy(isKeyByte) { return id }
        return digest(id)
    }

    /// `id` as event data and projection columns hold it: itself unless it holds U+0000
    /// or starts with `sha256=`, then `sha256=` and its hex SHA-256.
    public static func value(_ id: String) -> String {
        if !id.unicodeScalars.contains("\u{0}") && !id.hasPrefix(digestPrefix) { return id }
        return digest(id)
    }

    /// Free text from outside (a notification's type, a product id in a reason) as event
    /// data can hold it: U+0000 becomes U+FFFD. For text that is read, not matched.
    public static func text(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{0}") else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
    }

    private static func digest(_ id: String) -> String {
        digestPrefix + Hex.encode(SHA256.hash(Array(id.utf8)))
    }

    private static func isKeyByte(_ c: UInt8) -> Bool {
        (48...57).contains(c) || (65...90).contains(c) || (97...122).contains(c) || c == 0x2E || c == 0x5F || c == 0x2D
    }
}
