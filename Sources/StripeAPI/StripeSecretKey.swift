import Foundation

/// A secret API key of a Stripe account, checked for its shape: `sk_test_` or `sk_live_`
/// (a standard secret key) or `rk_test_` or `rk_live_` (a restricted key), then letters
/// and digits. It is only ever written in the `Authorization` header: its description,
/// and every error about it, names its kind and mode, never its bytes.
public struct StripeSecretKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The prefixes a secret key begins with.
    public static let prefixes = ["sk_test_", "sk_live_", "rk_test_", "rk_live_"]
    /// The fewest characters after the prefix (Stripe's keys have far more).
    public static let minimumSecretLength = 16
    /// The most characters in all: a file holding more is not a key.
    public static let maximumLength = 255

    let text: String

    /// The key in `text` (surrounding white space, as a file's last newline, removed).
    public init(_ text: String) throws(StripeAPIError) {
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let prefix = Self.prefixes.first(where: { key.hasPrefix($0) }) else {
            throw StripeAPIError(.secretKeyInvalid, "a Stripe secret key begins with sk_test_, sk_live_, rk_test_ or rk_live_")
        }
        let secret = key.utf8.dropFirst(prefix.utf8.count)
        guard key.utf8.count <= Self.maximumLength, secret.count >= Self.minimumSecretLength,
              secret.allSatisfy(Self.isKeyCharacter) else {
            throw StripeAPIError(.secretKeyInvalid,
                                 "a Stripe secret key is its prefix and then at least \(Self.minimumSecretLength) letters and digits (at most \(Self.maximumLength) characters in all)")
        }
        self.text = key
    }

    /// Live mode (`sk_live_`, `rk_live_`) or test mode.
    public var livemode: Bool { text.hasPrefix("sk_live_") || text.hasPrefix("rk_live_") }
    /// A restricted key (`rk_…`), whose permissions are those the account gave it.
    public var isRestricted: Bool { text.hasPrefix("rk_") }

    /// Its kind and mode, never its bytes: `sk_test_… (redacted)`.
    public var description: String { String(text.prefix(8)) + "… (redacted)" }
    public var debugDescription: String { description }

    /// `text` with every word shaped like a secret key (a prefix, then letters, digits and
    /// the `*` Stripe masks keys with) replaced by `[redacted key]`: what Stripe says about
    /// a refused key quotes part of it.
    public static func redacting(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let range = firstPrefix(in: rest) {
            out += rest[..<range.lowerBound]
            var end = range.upperBound
            while end < rest.endIndex, let ascii = rest[end].asciiValue, isKeyCharacter(ascii) || ascii == UInt8(ascii: "*") {
                end = rest.index(after: end)
            }
            out += "[redacted key]"
            rest = rest[end...]
        }
        return out + rest
    }

    private static func firstPrefix(in text: Substring) -> Range<Substring.Index>? {
        prefixes.compactMap { text.range(of: $0) }.min { $0.lowerBound < $1.lowerBound }
    }

    private static func isKeyCharacter(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
    }
}
