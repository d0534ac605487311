import AppStoreServerAPI
import LedgerJSON
import Testing
import TestSupport

@Suite("Apple's error bodies become typed errors with stable codes", .bounded)
struct ErrorTests {
    @Test("an unknown transaction id is transaction_id_not_found (4040010), an invalid one invalid_transaction_id (4000006)")
    func appleErrorsFromTheStandIn() throws {
        let fixture = try StandInFixture()
        let client = fixture.client()
        let missing = try #require(throws: AppStoreServerAPIError.self) { try client.transactionInfo(transactionID: "1999999999999999") }
        #expect(missing.code == .transactionIDNotFound && missing.code.rawValue == "transaction_id_not_found")
        #expect(missing.status == 404 && missing.appleErrorCode == 4_040_010 && missing.message == "Transaction id not found.")
        #expect(!missing.isRetryable)
        let invalid = try #require(throws: AppStoreServerAPIError.self) { try client.transactionHistory(transactionID: "not-a-number") }
        #expect(invalid.code == .invalidTransactionID && invalid.code.rawValue == "invalid_transaction_id" && invalid.status == 400)
    }

    @Test("each documented code has its own name; an unknown one keeps its number")
    func codes() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        let client = fixture.client()
        let cases: [(Int64, Int, String)] = [
            (4_000_006, 400, "invalid_transaction_id"), (4_040_010, 404, "transaction_id_not_found"),
            (4_290_000, 429, "rate_limit_exceeded"), (5_000_000, 500, "general_internal"),
            (5_000_001, 500, "general_internal_retryable"), (4_040_002, 404, "account_not_found_retryable"),
            (4_000_017, 400, "pagination_token_expired"), (4_999_999, 400, "apple_4999999"),
        ]
        for (number, status, name) in cases {
            // One attempt, so that 429 and 5xx come back as they are.
            fixture.standIn.fail(next: 1, status: status, body: ["errorCode": .integer(number), "errorMessage": "m"])
            let error = try #require(throws: AppStoreServerAPIError.self) {
                try fixture.client(maximumAttempts: 1).transactionInfo(transactionID: transaction.transactionID)
            }
            #expect(error.code.rawValue == name && error.appleErrorCode == number && error.status == status && error.message == "m")
            #expect(error.isRetryable == [4_290_000, 5_000_000, 5_000_001, 4_040_002].contains(number))
        }
        _ = client
        #expect(AppStoreServerAPIError.Code.apple(4_040_010) == .transactionIDNotFound)
    }

    @Test("without Apple's body: rate_limited, server_error, unexpected_status")
    func withoutBody() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        for (status, code) in [(429, AppStoreServerAPIError.Code.rateLimited), (502, .serverError), (418, .unexpectedStatus)] {
            fixture.standIn.fail(next: 1, status: status)
            let error = try #require(throws: AppStoreServerAPIError.self) {
                try fixture.client(maximumAttempts: 1).transactionInfo(transactionID: transaction.transactionID)
            }
            #expect(error.code == code && error.status == status && error.appleErrorCode == nil)
        }
    }

    @Test("an answer that is not the documented JSON is malformed_answer")
    func malformed() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        // The fault's body stands for a success with the wrong shape.
        fixture.standIn.fail(next: 1, status: 200, body: ["unexpected": true])
        let error = try #require(throws: AppStoreServerAPIError.self) {
            try fixture.client().transactionInfo(transactionID: transaction.transactionID)
        }
        #expect(error.code == .malformedAnswer)
    }
}
