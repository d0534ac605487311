import Foundation

/// How the client retries: a 429 waits what Apple's `Retry-After` says (up to
/// `maximumRetryAfter`), a 429 without it, a 5xx, a timeout or a failed connection backs off
/// exponentially with jitter; at most `maximumAttempts` requests in all. A 4xx other than
/// 429 is an answer and is never retried.
///
/// The sleep and the randomness are injected so that tests record the delays instead of
/// waiting them out.
public struct AppStoreServerAPIRetryPolicy: Sendable {
    /// Requests in all, the first included (1: no retries).
    public var maximumAttempts: Int
    /// The first backoff's ceiling, in seconds; each retry doubles it.
    public var baseDelay: Double
    /// No backoff is longer than this.
    public var maximumDelay: Double
    /// A `Retry-After` longer than this is not waited out: the call fails with the 429 and
    /// its `retryAfter`, for the caller (a job with its own schedule) to honour.
    public var maximumRetryAfter: Double
    /// Waits `seconds` (the calling thread's own sleep by default).
    public var sleep: @Sendable (_ seconds: Double) -> Void
    /// A number in `0...1`, uniformly: the jitter.
    public var random: @Sendable () -> Double

    public init(maximumAttempts: Int = 5, baseDelay: Double = 0.5, maximumDelay: Double = 30, maximumRetryAfter: Double = 60,
                sleep: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
                random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
        self.sleep = sleep
        self.random = random
    }

    /// The ceiling of the backoff after failed attempt `attempt` (1-based):
    /// `min(maximumDelay, baseDelay · 2^(attempt-1))`.
    public func ceiling(afterAttempt attempt: Int) -> Double {
        min(maximumDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
    }

    /// The backoff after failed attempt `attempt`: "equal jitter", half the ceiling plus a
    /// random part of the other half, so that clients that failed together spread out yet
    /// none retries at once.
    public func backoff(afterAttempt attempt: Int) -> Double {
        let ceiling = ceiling(afterAttempt: attempt)
        let r = min(1, max(0, random()))
        return ceiling / 2 + ceiling / 2 * r
    }

    /// Seconds a `Retry-After` value asks for: delta-seconds, or an HTTP date (RFC 9110
    /// §10.2.3) measured from `now`; nil when it is neither.
    public static func retryAfterSeconds(_ value: String, now: Date) -> Double? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return Double(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: text) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
