import LedgerDomain
import Synchronization

/// Keys that authenticated in the last moments, so that a busy client does not cost a
/// database round trip per request. Only valid keys are kept, for `lifetime` seconds: a
/// revoked key stops working within that time.
public final class KeyCache: Sendable {
    private struct Entry: Sendable {
        var principal: KeyPrincipal
        var expires: Int64
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// Microseconds.
    private let lifetime: Int64
    private let capacity = 10_000
    private let clock: LedgerClock

    /// Keys are kept `lifetime` seconds by `clock` (tests move it).
    public init(lifetime: Double = 2, clock: @escaping LedgerClock = SystemClock.now) {
        self.lifetime = Int64(lifetime * 1_000_000)
        self.clock = clock
    }

    func lookup(_ digest: String) -> KeyPrincipal? {
        guard lifetime > 0 else { return nil }
        let now = clock().microseconds
        return entries.withLock { e in
            guard let entry = e[digest] else { return nil }
            if entry.expires > now { return entry.principal }
            e[digest] = nil
            return nil
        }
    }

    func store(_ digest: String, _ principal: KeyPrincipal) {
        guard lifetime > 0 else { return }
        entries.withLock { e in
            if e.count >= capacity { e.removeAll(keepingCapacity: true) }
            e[digest] = Entry(principal: principal, expires: clock().microseconds + lifetime)
        }
    }
}
