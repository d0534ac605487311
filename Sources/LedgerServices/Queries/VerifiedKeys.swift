import LedgerDomain
import Synchronization

/// Secret keys that verified in the last minute, by their SHA-256: what the HTTP server
/// may count a request against before the request is authenticated (`ServiceContext`'s
/// `admissionClient`), so that a client with a real key gets a share of its own while
/// one that invents a credential per request shares its address's.
///
/// Never an authorization: every request is still authenticated by `SecretKeys`, against
/// the log, so a revoked key is refused from the moment its revocation is recorded,
/// whatever this remembers. Bounded (`capacity`); when full, the oldest entries go first,
/// in O(1) per insertion.
public final class VerifiedKeys: Sendable {
    private struct State: Sendable {
        var expiry: [String: Int64] = [:]
        /// Digests in the order they were (last) noted; stale entries are skipped when
        /// they reach the front.
        var order: [(digest: String, expires: Int64)] = []
        var head = 0
    }

    private let state = Mutex(State())
    /// Microseconds.
    private let lifetime: Int64
    let capacity: Int
    private let clock: LedgerClock

    /// Keys are remembered `lifetime` seconds by `clock` (tests move it), `capacity` at most.
    public init(lifetime: Double = 60, capacity: Int = 10_000, clock: @escaping LedgerClock = SystemClock.now) {
        precondition(capacity > 0, "a capacity of \(capacity)")
        self.lifetime = Int64(lifetime * 1_000_000)
        self.capacity = capacity
        self.clock = clock
    }

    /// Notes that the key with SHA-256 `digest` verified now.
    func note(_ digest: String) {
        guard lifetime > 0 else { return }
        let expires = clock().microseconds + lifetime
        state.withLock { s in
            s.expiry[digest] = expires
            s.order.append((digest, expires))
            // Drop from the front what expired or was noted again since, and the oldest
            // while over capacity: each entry is appended once per note and removed once.
            while s.head < s.order.count {
                let front = s.order[s.head]
                let current = s.expiry[front.digest]
                if current != front.expires {
                    s.head += 1
                } else if s.expiry.count > capacity || front.expires <= expires - lifetime {
                    s.expiry[front.digest] = nil
                    s.head += 1
                } else {
                    break
                }
            }
            if s.head > 1024 && s.head * 2 > s.order.count {
                s.order.removeFirst(s.head)
                s.head = 0
            }
        }
    }

    /// Whether the key with SHA-256 `digest` verified within the lifetime.
    public func contains(_ digest: String) -> Bool {
        let now = clock().microseconds
        return state.withLock { ($0.expiry[digest] ?? .min) > now }
    }

    /// Keys remembered now (expired ones included until they are dropped).
    var count: Int { state.withLock { $0.expiry.count } }
}
