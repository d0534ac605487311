import AppStore
import Crypto
import Foundation
import LedgerJSON
import Synchronization

/// Makes the JWT that authenticates every request, as Apple documents it ("Generating JSON
/// Web Tokens for API requests"): header `alg` ES256, `kid` the key id, `typ` JWT; claims
/// `iss` the issuer id, `iat` and `exp` in seconds, `aud` `appstoreconnect-v1`, `bid` the
/// bundle id; signed with the In-App Purchase key.
///
/// Apple refuses a token valid for more than an hour, so each lives `lifetime` (20
/// minutes); one token serves every request until less than `renewalMargin` (5 minutes) of
/// it is left, so that a request never leaves with a token that expires on its way or
/// during its retries. Shared by all threads; the clock is injected for tests.
public final class AppStoreServerAPITokenIssuer: Sendable {
    public static let audience = "appstoreconnect-v1"
    public static let defaultLifetime: Double = 20 * 60
    public static let defaultRenewalMargin: Double = 5 * 60

    public let credentials: AppStoreServerAPICredentials
    public let lifetime: Double
    public let renewalMargin: Double
    private let clock: @Sendable () -> Date
    private let cached = Mutex<Token?>(nil)

    struct Token {
        var text: String
        var expires: Date
    }

    /// - Parameters:
    ///   - lifetime: seconds from `iat` to `exp`; less than Apple's hour.
    ///   - renewalMargin: a token with less than this left is replaced.
    ///   - clock: now (the system clock by default).
    public init(credentials: AppStoreServerAPICredentials, lifetime: Double = defaultLifetime,
                renewalMargin: Double = defaultRenewalMargin, clock: @escaping @Sendable () -> Date = { Date() }) {
        precondition(lifetime > renewalMargin && lifetime <= 3600, "a token lives at most an hour, longer than its renewal margin")
        self.credentials = credentials
        self.lifetime = lifetime
        self.renewalMargin = renewalMargin
        self.clock = clock
    }

    /// The token to send now: the cached one while it has more than `renewalMargin` left,
    /// else a new one (made under the lock, so that threads racing at renewal make one).
    public func token() -> String {
        let now = clock()
        return cached.withLock { cached in
            if let token = cached, token.expires.timeIntervalSince(now) > renewalMargin { return token.text }
            let token = make(at: now)
            cached = token
            return token.text
        }
    }

    /// Forgets the cached token: after a 401, so that the next request signs a new one
    /// rather than sending what Apple refused until it expires.
    public func invalidate(_ text: String) {
        cached.withLock { if $0?.text == text { $0 = nil } }
    }

    private func make(at now: Date) -> Token {
        let issued = Int64(now.timeIntervalSince1970.rounded(.down))
        let expires = issued + Int64(lifetime)
        return Token(text: Self.sign(credentials: credentials, issuedAt: issued, expiresAt: expires),
                     expires: Date(timeIntervalSince1970: Double(expires)))
    }

    /// A JWT for `credentials`, valid from `issuedAt` to `expiresAt` (Unix seconds). Public so
    /// that tests can make tokens Apple would refuse (too long, expired, the wrong audience).
    public static func sign(credentials: AppStoreServerAPICredentials, issuedAt: Int64, expiresAt: Int64,
                            audience: String = audience, keyID: String? = nil) -> String {
        let header: JSONValue = ["alg": "ES256", "kid": .string(keyID ?? credentials.keyID), "typ": "JWT"]
        let claims: JSONValue = [
            "iss": .string(credentials.issuerID),
            "iat": .integer(issuedAt),
            "exp": .integer(expiresAt),
            "aud": .string(audience),
            "bid": .string(credentials.bundleID),
        ]
        let input = Base64URL.encode(header.compactBytes()) + "." + Base64URL.encode(claims.compactBytes())
        return input + "." + Base64URL.encode(credentials.key.sign(Array(input.utf8)))
    }
}
