import Crypto
import LedgerDomain
import LedgerServices

/// How the console runs: the key its forms' CSRF tokens derive from, and the login limits.
public struct ConsoleSettings: Sendable {
    /// The key of the forms' CSRF tokens (HMAC-SHA256 of the sign-in nonce, or of the
    /// session's cookie token): at least 32 bytes (LEDGER_CONSOLE_SECRET; `ledger dev`
    /// keeps one). No cookie is signed with it: a session cookie is a random token, its
    /// session a row (`ConsoleSession`).
    public var secret: [UInt8]
    public var lockout: ConsoleLockout
    /// The console's clock (tests set it).
    public var now: LedgerClock
    /// Seconds a rebuild started from the projections page waits for an operator to swap
    /// it in or discard it, before it is discarded.
    public var rebuildDecisionTimeout: Double = 1_800
    /// A login in `ledger_projector` (LEDGER_PROJECTOR_DATABASE_URL) for the rebuilds started
    /// from the projections page; without one the page points to `ledger replay`. The
    /// console's own role only reads the projections (docs/security.md), so a rebuild, which
    /// writes a schema and swaps it in, needs the projector's.
    public var projectorConninfo: String?

    /// Seconds without a request after which a session ends (LEDGER_CONSOLE_IDLE_MINUTES).
    public var idleTimeout: Double = ConsoleSession.defaultIdleTimeout
    /// Seconds a session lasts from its sign-in (LEDGER_CONSOLE_SESSION_HOURS).
    public var sessionLifetime: Double = ConsoleSession.defaultLifetime
    /// Whether operators reach the console over https (LEDGER_CONSOLE_URL): its cookies then
    /// take the `__Host-` prefix.
    public var https = false
    /// The host names a request's `Host` may give (without its port, lowercase): the
    /// console's own address and LEDGER_CONSOLE_URL's host. Any other is refused before
    /// anything else, so that a page of another site whose name was made to resolve to the
    /// console (DNS rebinding) can neither read a page nor post a sign-in.
    public var allowedHosts: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

    /// The session cookie's name, and the sign-in form's.
    public var sessionCookie: String { ConsoleSession.cookieName(https: https) }
    public var loginCookie: String { (https ? "__Host-" : "") + "ledger_console_login" }

    public init(secret: [UInt8], lockout: ConsoleLockout = ConsoleLockout(),
                now: @escaping LedgerClock = SystemClock.now) {
        self.secret = secret
        self.lockout = lockout
        self.now = now
    }
}
