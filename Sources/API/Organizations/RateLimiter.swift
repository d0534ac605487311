import LedgerDomain
import LedgerServices
import Synchronization

/// A token bucket per client address (N8): `rate` requests a second, bursts of twice that.
/// Buckets of addresses that went quiet are dropped, so memory stays bounded.
public final class RateLimiter: Sendable {
    private struct Bucket: Sendable {
        var tokens: Double
        var updated: Double
    }

    private let buckets = Mutex<[String: Bucket]>([:])
    private let rate: Double
    private let burst: Double
    private let clock: LedgerClock
    private let capacity = 100_000

    public init(perSecond rate: Double, clock: @escaping LedgerClock = SystemClock.now) {
        self.rate = rate
        self.burst = max(1, rate * 2)
        self.clock = clock
    }

    /// Nil when the request may go on; otherwise the seconds to wait (for `Retry-After`).
    public func admit(_ address: String) -> Int? {
        guard rate > 0 else { return nil }
        let now = clock().seconds
        return buckets.withLock { b in
            if b.count >= capacity {
                b = b.filter { now - $0.value.updated < burst / rate }
            }
            var bucket = b[address] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            defer { b[address] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
        }
    }
}
