import LedgerDomain
import Synchronization

/// A clock the test sets; the commands read it through `AdminServices.now`.
final class AdminClock: Sendable {
    private let micros: Atomic<Int64>

    init(_ iso: String) { micros = Atomic(Timestamp(iso8601: iso)!.microseconds) }

    var now: Timestamp { Timestamp(microseconds: micros.load(ordering: .relaxed))! }
    var read: @Sendable () -> Timestamp { { [self] in now } }

    func set(_ iso: String) { micros.store(Timestamp(iso8601: iso)!.microseconds, ordering: .relaxed) }
}
