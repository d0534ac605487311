import Crypto
import Foundation
import LedgerDomain

/// A console session: a row of `console_sessions` (migration 0012), opened at sign-in and
/// found again, on every request, by the SHA-256 of the random token its cookie carries.
/// The cookie is nothing but that token: signing out, an idle spell, the end of its
/// lifetime, its operator being disabled or given another password, or another operator
/// ending it (`ledger admin operator sessions end`) ends it for every copy of the cookie
/// at once (docs/security.md).
public struct ConsoleSession: Sendable, Equatable {
    /// `cs_` and 16 hex digits: how listings and `operator.sessions_ended` name it.
    public var id: String
    public var operatorName: String
    /// The `console_credentials` row of the password it was opened with.
    public var credential: String
    /// The operator's `sessionEpoch` when it was opened.
    public var epoch: Int64
    /// Microseconds since 1970.
    public var created: Int64
    public var lastSeen: Int64
    public var expires: Int64
    public var ended: Int64?
    public var endedReason: String?
    public var address: String
    public var userAgent: String

    /// The cookie's name over plain http (a developer's loopback).
    public static let cookieName = "ledger_console"
    /// Over https the `__Host-` prefix: the browser then keeps it only if it is Secure, for
    /// the whole host and no other (RFC 6265bis §4.1.3.2), so that a sibling domain cannot
    /// plant one.
    public static func cookieName(https: Bool) -> String { (https ? "__Host-" : "") + cookieName }

    /// Seconds of inactivity after which a session ends (LEDGER_CONSOLE_IDLE_MINUTES).
    public static let defaultIdleTimeout: Double = 30 * 60
    /// Seconds a session lasts from its sign-in, however active (LEDGER_CONSOLE_SESSION_HOURS).
    public static let defaultLifetime: Double = 8 * 3600
    /// A session's `last_seen` is written at most this often (seconds): the idle timeout is
    /// exact to within it, and an active operator costs one write a minute, not one a page.
    public static let touchInterval: Double = 60

    /// A new secret for a cookie: 256 random bits, base64url (43 characters).
    public static func newToken() -> String { Base64URL.encode(SecureRandom.bytes(32)) }

    /// A new public id.
    public static func newID() -> String { "cs_" + Hex.encode(SecureRandom.bytes(8)) }

    /// Whether `text` could be a token this console made, before any lookup.
    public static func isWellFormedToken(_ text: String) -> Bool {
        text.utf8.count == 43 && Base64URL.decode(text)?.count == 32
    }

    /// What the table keeps of a token.
    public static func digest(of token: String) -> [UInt8] { SHA256.hash(Array(token.utf8)) }

    /// The token every form of the session carries, derived from the cookie's: a page of
    /// another site can read neither.
    public static func csrfToken(forToken token: String, secret: [UInt8]) -> String {
        Base64URL.encode(HMAC.sha256(key: secret, data: Array("csrf\n\(token)".utf8)))
    }

    /// Where the session stands at `now` (microseconds), as its operator's stream says.
    public enum Status: Sendable, Equatable, CustomStringConvertible {
        case active
        case ended(String)
        case expired
        case idle

        public var description: String {
            switch self {
            case .active: return "active"
            case .ended(let reason): return "ended (\(reason))"
            case .expired: return "expired"
            case .idle: return "ended (idle)"
            }
        }
    }

    public func status(at now: Int64, idleTimeout: Double, operator state: OperatorDecider.State?) -> Status {
        if let reason = endedReason ?? (ended != nil ? "ended" : nil) { return .ended(reason) }
        guard let state else { return .ended("no such operator") }
        if state.disabled { return .ended("operator disabled") }
        if state.credential != credential { return .ended("password reset") }
        if state.endedSessions.contains(id) || state.sessionEpoch != epoch { return .ended("ended by an operator") }
        if now >= expires { return .expired }
        if Double(now - lastSeen) >= idleTimeout * 1e6 { return .idle }
        return .active
    }
}
