import Foundation
import LedgerDomain
import Synchronization

/// A clock the test sets, read by the service (`ServiceContext.now`) or the commands
/// (`AdminServices.now`) through `read`.
public final class ManualClock: Sendable {
    private let micros: Atomic<Int64>

    public init(_ iso: String = "2026-11-15T12:00:00Z") { micros = Atomic(Timestamp(iso8601: iso)!.microseconds) }

    public var now: Timestamp { Timestamp(microseconds: micros.load(ordering: .relaxed))! }
    public var read: LedgerClock { { [self] in now } }

    public func set(_ iso: String) { micros.store(Timestamp(iso8601: iso)!.microseconds, ordering: .relaxed) }

    /// Moves the clock on by `seconds`.
    public func advance(seconds: Double) { micros.add(Int64(seconds * 1_000_000), ordering: .relaxed) }

    /// A clock at the machine's time now, for tests whose events the database stamps.
    public static func atMachineTime() -> ManualClock {
        let clock = ManualClock()
        clock.micros.store(Int64(Date().timeIntervalSince1970 * 1_000_000), ordering: .relaxed)
        return clock
    }
}
