import Crypto
import Foundation
import LedgerJSON

/// The signed-in person, from the session cookie: a JWT (HS256) the identity service signs
/// with the key it shares with this service (`LEDGER_SESSION_SECRET`).
///
/// Claims: `sub` (the person), `org` (the active organization), `email`,
/// `email_verified`, `staff` (a staff member), `reseller` (the reseller the person
/// administers, if any), `csrf` (the value the CSRF header must carry on writes), `exp`.
public struct SessionToken: Sendable, Equatable {
    public var personID: String
    public var activeOrg: String?
    public var email: String?
    public var emailVerified: Bool
    public var isStaff: Bool
    public var resellerID: String?
    public var csrf: String?
    public var expires: Int64

    /// The cookie that carries the session.
    public static let cookieName = "session"

    /// Verifies a token's signature and expiry; nil when it is not a valid session.
    public static func verify(_ token: String, secret: [UInt8], now: Int64) -> SessionToken? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !secret.isEmpty,
              let headerBytes = Base64URL.decode(String(parts[0])), let header = try? JSONValue.parse(headerBytes),
              header["alg"] == "HS256",
              let signature = Base64URL.decode(String(parts[2])),
              constantTimeEquals(signature, HMAC.sha256(key: secret, data: Array("\(parts[0]).\(parts[1])".utf8))),
              let payloadBytes = Base64URL.decode(String(parts[1])), let claims = try? JSONValue.parse(payloadBytes),
              let sub = claims["sub"]?.stringValue, !sub.isEmpty, let exp = claims["exp"]?.int64Value, exp > now
        else { return nil }
        return SessionToken(personID: sub, activeOrg: claims["org"]?.stringValue, email: claims["email"]?.stringValue,
                            emailVerified: claims["email_verified"]?.boolValue ?? false, isStaff: claims["staff"]?.boolValue ?? false,
                            resellerID: claims["reseller"]?.stringValue, csrf: claims["csrf"]?.stringValue, expires: exp)
    }

    /// Signs a session (tests, and the demo session of `ledger dev`).
    public static func sign(_ claims: JSONValue, secret: [UInt8]) -> String {
        let header = Base64URL.encode((["alg": "HS256", "typ": "JWT"] as JSONValue).compactBytes())
        let payload = Base64URL.encode(claims.compactBytes())
        let signature = Base64URL.encode(HMAC.sha256(key: secret, data: Array("\(header).\(payload)".utf8)))
        return "\(header).\(payload).\(signature)"
    }
}
