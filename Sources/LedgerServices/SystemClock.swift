import Foundation
import LedgerDomain

/// The machine's clock, for every process of the ledger: the API, the projector's
/// workers and the CLI read time through this one function (tests pass their own).
public enum SystemClock {
    /// The machine's time, at microsecond precision.
    public static let now: LedgerClock = {
        Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000)) ?? .minimum
    }
}
