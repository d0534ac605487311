import Foundation
import StripeAPI
import StripeStandIn
import Synchronization
import Testing
import TestSupport

@Suite("429, 409 and 5xx retried with backoff and jitter within bounds; Stripe-Should-Retry honoured", .bounded)
struct RetryTests {
    @Test("429 twice, then the page: each retry after a jittered, doubling backoff")
    func rateLimitedThenSuccess() throws {
        let fixture = try StripeFixture()
        let recorded = fixture.recordEvents(3)
        fixture.standIn.fail(next: 2, status: 429)
        let page = try fixture.client().eventsPage(StripeEventsQuery())
        #expect(page.events.map(\.id) == recorded.reversed())
        #expect(fixture.standIn.requests.map(\.status) == [429, 429, 200])
        // Ceilings 1 and 2 (base 1 s, doubled); a draw of 0.5 is three quarters of each.
        #expect(fixture.recordedSleeps == [0.75, 1.5])
    }

    @Test("Stripe-Should-Retry: false is not retried, even a 5xx")
    func shouldRetryFalse() throws {
        let fixture = try StripeFixture()
        fixture.standIn.fail(next: 1, status: 500, shouldRetry: false)
        let error = try #require(throws: StripeAPIError.self) { try fixture.client().eventsPage(StripeEventsQuery()) }
        #expect(error.code == .unavailable && error.status == 500 && error.attempts == 1 && error.stripeType == "api_error")
        #expect(fixture.recordedSleeps.isEmpty && fixture.standIn.requests.count == 1)
        fixture.standIn.fail(next: 1, status: 429, shouldRetry: false)
        let limited = try #require(throws: StripeAPIError.self) { try fixture.client().eventsPage(StripeEventsQuery()) }
        #expect(limited.code == .rateLimited && limited.attempts == 1 && limited.stripeCode == "rate_limit" && limited.isRetryable)
    }

    @Test("Stripe-Should-Retry: true is retried, as is a 409 without it")
    func shouldRetryTrue() throws {
        let fixture = try StripeFixture()
        fixture.standIn.fail(next: 1, status: 400, shouldRetry: true)
        fixture.standIn.fail(next: 1, status: 409)
        _ = try fixture.client().eventsPage(StripeEventsQuery())
        #expect(fixture.standIn.requests.map(\.status) == [400, 409, 200])
        #expect(fixture.recordedSleeps.count == 2)
    }

    @Test("5xx past the attempts allowed: stripe_unavailable after as many requests, the backoff within its bounds")
    func serverErrorsExhausted() throws {
        let fixture = try StripeFixture()
        fixture.standIn.fail(next: 10, status: 503)
        let draws = Mutex<[Double]>([0, 1, 0.25])
        let client = try fixture.client(maximumAttempts: 4, random: { draws.withLock { $0.removeFirst() } })
        let error = try #require(throws: StripeAPIError.self) { try client.eventsPage(StripeEventsQuery()) }
        #expect(error.code == .unavailable && error.code.rawValue == "stripe_unavailable")
        #expect(error.status == 503 && error.attempts == 4 && error.isRetryable)
        #expect(fixture.standIn.requests.map(\.status) == [503, 503, 503, 503])
        // Ceilings 1, 2, 4: half of each plus the drawn share of the other half.
        #expect(fixture.recordedSleeps == [0.5, 2, 2.5])
        for (attempt, delay) in fixture.recordedSleeps.enumerated() {
            let ceiling = client.configuration.retry.ceiling(afterAttempt: attempt + 1)
            #expect(delay >= ceiling / 2 && delay <= ceiling)
        }
    }

    @Test("429 past the attempts allowed: stripe_rate_limited")
    func rateLimitExhausted() throws {
        let fixture = try StripeFixture()
        fixture.standIn.fail(next: 5, status: 429)
        let error = try #require(throws: StripeAPIError.self) { try fixture.client(maximumAttempts: 3).eventsPage(StripeEventsQuery()) }
        #expect(error.code == .rateLimited && error.status == 429 && error.attempts == 3)
        #expect(fixture.recordedSleeps.count == 2)
    }

    @Test("jittered delays stay within their bounds for any draw, and never pass the maximum")
    func jitterBounds() {
        let policy = StripeAPIRetryPolicy(baseDelay: 0.5, maximumDelay: 8, random: { Double.random(in: 0...1) })
        for attempt in 1...70 {
            let ceiling = min(8, 0.5 * pow(2, Double(min(62, attempt - 1))))
            #expect(policy.ceiling(afterAttempt: attempt) == ceiling)
            for _ in 0..<20 {
                let delay = policy.backoff(afterAttempt: attempt)
                #expect(delay >= ceiling / 2 && delay <= ceiling)
            }
        }
    }

    @Test("a refused connection is retried, then fails as stripe_unavailable")
    func transportFailures() throws {
        let fixture = try StripeFixture()
        let client = try fixture.client(maximumAttempts: 3)
        fixture.standIn.stop()
        let error = try #require(throws: StripeAPIError.self) { try client.eventsPage(StripeEventsQuery()) }
        #expect(error.code == .unavailable && error.status == nil && error.attempts == 3)
        #expect(fixture.recordedSleeps == [0.75, 1.5])
    }

    @Test("the default sleep with a small base delay really waits, and the retry then succeeds")
    func realSleeps() throws {
        let fixture = try StripeFixture()
        fixture.recordEvents(1)
        fixture.standIn.fail(next: 2, status: 502)
        let configuration = try StripeAPIConfiguration(appID: "a", secretKey: fixture.secretKey, baseURL: fixture.standIn.baseURL,
                                                       retry: StripeAPIRetryPolicy(maximumAttempts: 3, baseDelay: 0.001, maximumDelay: 0.01))
        #expect(try fixture.client(configuration).eventsPage(StripeEventsQuery()).events.count == 1)
        #expect(fixture.standIn.requests.map(\.status) == [502, 502, 200])
    }
}
