import AppStoreServerAPI
import Foundation
import LedgerJSON
import Synchronization
import Testing
import TestSupport

@Suite("Rate limits and server errors are retried within bounds; other 4xx never", .bounded)
struct RetryTests {
    static let rateLimited: JSONValue = ["errorCode": 4_290_000, "errorMessage": "Rate limit exceeded."]

    @Test("a 429 storm waits what Retry-After says each time, then succeeds")
    func rateLimitStorm() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        fixture.standIn.fail(next: 2, status: 429, retryAfter: "7", body: Self.rateLimited)
        fixture.standIn.fail(next: 1, status: 429, retryAfter: "2", body: Self.rateLimited)
        let answer = try fixture.client().transactionInfo(transactionID: transaction.transactionID)
        #expect(answer.value == transaction)
        #expect(fixture.recordedSleeps == [7, 7, 2])
        #expect(fixture.standIn.requests.map(\.status) == [429, 429, 429, 200])
    }

    @Test("Retry-After as an HTTP date is read from now")
    func retryAfterDate() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let text = formatter.string(from: now.addingTimeInterval(42))
        #expect(AppStoreServerAPIRetryPolicy.retryAfterSeconds(text, now: now) == 42)
        #expect(AppStoreServerAPIRetryPolicy.retryAfterSeconds("120", now: now) == 120)
        #expect(AppStoreServerAPIRetryPolicy.retryAfterSeconds("soon", now: now) == nil)
    }

    @Test("a Retry-After longer than the policy's bound is not waited: the 429 is returned with it")
    func retryAfterBeyondBound() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        fixture.standIn.fail(next: 1, status: 429, retryAfter: "3600", body: Self.rateLimited)
        let error = try #require(throws: AppStoreServerAPIError.self) {
            try fixture.client(maximumRetryAfter: 60).transactionInfo(transactionID: transaction.transactionID)
        }
        #expect(error.code == .rateLimitExceeded && error.code.rawValue == "rate_limit_exceeded")
        #expect(error.retryAfter == 3600 && error.attempts == 1 && error.isRetryable)
        #expect(fixture.recordedSleeps.isEmpty)
    }

    @Test("5xx back off exponentially, each delay between half its ceiling and the ceiling")
    func serverErrorsBackOff() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        fixture.standIn.fail(next: 4, status: 503)
        let draws = Mutex<[Double]>([0, 1, 0.25, 0.9])
        let client = fixture.client(random: { draws.withLock { $0.removeFirst() } })
        #expect(try client.transactionInfo(transactionID: transaction.transactionID).value == transaction)
        // Ceilings 1, 2, 4, 8 (base 1 s, doubled, at most 8): half of each plus the drawn share of the other half.
        #expect(fixture.recordedSleeps == [0.5, 2, 2.5, 7.6])
        for (attempt, delay) in fixture.recordedSleeps.enumerated() {
            let ceiling = client.configuration.retry.ceiling(afterAttempt: attempt + 1)
            #expect(delay >= ceiling / 2 && delay <= ceiling)
        }
    }

    @Test("jittered delays stay within their bounds for any draw, and never pass the maximum")
    func jitterBounds() {
        let policy = AppStoreServerAPIRetryPolicy(baseDelay: 0.5, maximumDelay: 30, random: { Double.random(in: 0...1) })
        for attempt in 1...12 {
            let ceiling = min(30, 0.5 * pow(2, Double(attempt - 1)))
            for _ in 0..<50 {
                let delay = policy.backoff(afterAttempt: attempt)
                #expect(delay >= ceiling / 2 && delay <= ceiling)
            }
        }
    }

    @Test("5xx past the attempts allowed: the last error, after as many requests")
    func attemptsExhausted() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        fixture.standIn.fail(next: 10, status: 500, body: ["errorCode": 5_000_001, "errorMessage": "An unknown retryable error occurred."])
        let error = try #require(throws: AppStoreServerAPIError.self) {
            try fixture.client(maximumAttempts: 3).transactionInfo(transactionID: transaction.transactionID)
        }
        #expect(error.code == .generalInternalRetryable && error.attempts == 3 && error.status == 500)
        #expect(fixture.recordedSleeps.count == 2)
        #expect(fixture.standIn.requests.count == 3)
    }

    @Test("a 4xx other than 429 is an answer: never retried")
    func clientErrorsNotRetried() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        for status in [400, 403, 404, 409] {
            fixture.standIn.fail(next: 1, status: status, body: ["errorCode": 4_000_000, "errorMessage": "Bad request."])
            let error = try #require(throws: AppStoreServerAPIError.self) {
                try fixture.client().transactionInfo(transactionID: transaction.transactionID)
            }
            #expect(error.status == status && error.attempts == 1)
        }
        #expect(fixture.recordedSleeps.isEmpty)
        #expect(fixture.standIn.requests.count == 4)
    }

    @Test("a connection refused is retried with backoff, then fails as connection_failed")
    func transportFailures() throws {
        let fixture = try StandInFixture()
        let url = fixture.standIn.baseURL
        fixture.standIn.stop()
        var configuration = fixture.client().configuration
        configuration.environment = .local(baseURL: url)
        let client = AppStoreServerAPIClient(configuration: configuration, clock: fixture.clock)
        defer { client.close() }
        let error = try #require(throws: AppStoreServerAPIError.self) { try client.transactionInfo(transactionID: "1") }
        #expect(error.code == .connectionFailed && error.attempts == 5 && error.isRetryable)
        #expect(fixture.recordedSleeps == [0.75, 1.5, 3, 6])
    }

    @Test("production configurations refuse anything but https to a public address")
    func productionPolicy() throws {
        let fixture = try StandInFixture()
        #expect(AppStoreServerAPIConfiguration(credentials: fixture.credentials, environment: .production).outboundPolicy == .production)
        #expect(AppStoreServerAPIConfiguration(credentials: fixture.credentials, environment: .sandbox).outboundPolicy == .production)
        var configuration = fixture.client().configuration
        configuration.outboundPolicy = .production
        let client = AppStoreServerAPIClient(configuration: configuration, clock: fixture.clock)
        defer { client.close() }
        let error = try #require(throws: AppStoreServerAPIError.self) { try client.transactionInfo(transactionID: "1") }
        #expect(error.code == .refused && error.attempts == 1)
        #expect(fixture.standIn.requests.isEmpty)
    }
}
