import Crypto
import Foundation
import LedgerDomain

/// A console session: who signed in, with which credential, when; carried in a cookie
/// signed with the console's secret (HMAC-SHA256), so that nothing is stored per
/// session. Checked on every request against the operator's stream: a disabled operator,
/// or one whose password was reset, is signed out at once.
public struct ConsoleSession: Sendable, Equatable {
    public var operatorName: String
    public var credential: String
    public var issuedAt: Int64
    /// Random, per session: the CSRF token of its forms is derived from it.
    public var nonce: String

    public static let cookieName = "ledger_console"
    /// Seconds a session lasts from its login.
    public static let lifetime: Int64 = 8 * 3600

    public init(operatorName: String, credential: String, issuedAt: Int64, nonce: String = Base64URL.encode(SecureRandom.bytes(16))) {
        self.operatorName = operatorName
        self.credential = credential
        self.issuedAt = issuedAt
        self.nonce = nonce
    }

    /// The cookie's value: the fields, then their signature.
    public func cookieValue(secret: [UInt8]) -> String {
        let payload = Base64URL.encode(Array("v1\n\(operatorName)\n\(credential)\n\(issuedAt)\n\(nonce)".utf8))
        return payload + "." + Base64URL.encode(HMAC.sha256(key: secret, data: Array(payload.utf8)))
    }

    /// The session a cookie carries, when its signature holds and it has not expired.
    public init?(cookieValue: String, secret: [UInt8], now: Int64) {
        let parts = cookieValue.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let signature = Base64URL.decode(String(parts[1])),
              constantTimeEquals(signature, HMAC.sha256(key: secret, data: Array(parts[0].utf8))),
              let bytes = Base64URL.decode(String(parts[0])), let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let fields = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 5, fields[0] == "v1", let issued = Int64(fields[3]), issued <= now + 60,
              now < issued + Self.lifetime else { return nil }
        self.init(operatorName: fields[1], credential: fields[2], issuedAt: issued, nonce: fields[4])
    }

    /// The token every form of this session carries.
    public func csrfToken(secret: [UInt8]) -> String {
        Base64URL.encode(HMAC.sha256(key: secret, data: Array("csrf\n\(nonce)".utf8)))
    }
}
