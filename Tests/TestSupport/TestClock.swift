import Foundation
import LedgerDomain

/// The current instant at millisecond precision, as Apple writes instants.
public enum TestClock {
    public static var now: Timestamp {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))!
    }
}
