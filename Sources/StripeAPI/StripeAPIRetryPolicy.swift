import Foundation

/// How the client retries, as Stripe advises ("Rate limits", "Error handling"): a 429
/// (too many requests, a lock timeout), a 409, a 5xx, a timeout or a failed connection
/// backs off exponentially with jitter, at most `maximumAttempts` requests in all; an
/// answer with `Stripe-Should-Retry: false` is never retried and one with `true` always is
/// (within the attempts). A 4xx other than 409 and 429 is an answer and is not retried.
///
/// The sleep and the randomness are injected so that tests record the delays instead of
/// waiting them out, and `baseDelay` keeps a test's real waits short.
public struct StripeAPIRetryPolicy: Sendable {
    /// Requests in all, the first included (1: no retries).
    public var maximumAttempts: Int
    /// The first backoff's ceiling, in seconds; each retry doubles it.
    public var baseDelay: Double
    /// No backoff is longer than this.
    public var maximumDelay: Double
    /// Waits `seconds` (the calling thread's own sleep by default).
    public var sleep: @Sendable (_ seconds: Double) -> Void
    /// A number in `0...1`, uniformly: the jitter.
    public var random: @Sendable () -> Double

    public init(maximumAttempts: Int = 4, baseDelay: Double = 0.5, maximumDelay: Double = 8,
                sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
                random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maximumDelay = max(0, maximumDelay)
        self.sleep = sleep
        self.random = random
    }

    /// The ceiling of the backoff after failed attempt `attempt` (1-based):
    /// `min(maximumDelay, baseDelay · 2^(attempt-1))`.
    public func ceiling(afterAttempt attempt: Int) -> Double {
        min(maximumDelay, baseDelay * pow(2, Double(min(62, max(0, attempt - 1)))))
    }

    /// The backoff after failed attempt `attempt`: half the ceiling plus a random part of
    /// the other half, so that clients refused together spread out, yet none retries at once.
    public func backoff(afterAttempt attempt: Int) -> Double {
        let ceiling = ceiling(afterAttempt: attempt)
        let r = min(1, max(0, random()))
        return ceiling / 2 + ceiling / 2 * r
    }
}
