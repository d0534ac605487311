import Crypto
import LedgerDomain

/// How the console runs: the key its cookies are signed with, and the login limits.
public struct ConsoleSettings: Sendable {
    /// At least 32 bytes (LEDGER_CONSOLE_SECRET; `ledger dev` keeps one).
    public var secret: [UInt8]
    public var lockout: ConsoleLockout
    /// The clock, in seconds since 1970 (tests set it).
    public var now: @Sendable () -> Double
    /// Seconds a rebuild started from the projections page waits for an operator to swap
    /// it in or discard it, before it is discarded.
    public var rebuildDecisionTimeout: Double = 1_800

    public init(secret: [UInt8], lockout: ConsoleLockout = ConsoleLockout(),
                now: @escaping @Sendable () -> Double = { Double(ServiceContext.systemClock().microseconds) / 1e6 }) {
        self.secret = secret
        self.lockout = lockout
        self.now = now
    }
}
