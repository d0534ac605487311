import AppStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices

/// `POST /v1/iap/transactions`: the SDK syncs a StoreKit 2 transaction into the user's
/// purchase history with the app (trial eligibility and campaign targeting read it).
/// Decode → verify with the app's bundle ID → `PurchaseSyncAct` (`CatalogDecider`, an
/// append holding no thread) → encode, in the seed's `Error` shape for every refusal.
enum TransactionSyncEndpoint {
    static func handle(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        do {
            let key = try PublishableKey.authenticate(request, context.catalog)
            let body = try request.jsonBody()
            guard body.objectValue != nil else {
                throw CatalogError.badRequest("the body must be a JSON object {\"user_id\": …, \"jws_representation\": …}", code: "invalid_body")
            }
            guard let user = body["user_id"]?.stringValue else {
                throw CatalogError.badRequest("user_id must be a string", code: "invalid_body")
            }
            try UserID.check(user)
            guard let jws = body["jws_representation"]?.stringValue else {
                throw CatalogError.badRequest("jws_representation must be the transaction's JWS (Transaction.jwsRepresentation)", code: "invalid_body")
            }
            let verifier = AppStoreVerifier(policy: context.appStore.verifier.policy, bundleID: key.app.bundleID)
            let transaction: AppStoreTransaction
            do {
                transaction = try context.verifyingAppStore("transaction") { () throws(AppStoreError) in try verifier.verifyTransaction(jws) }
            } catch {
                throw CatalogError(status: 422, error: "The transaction does not verify: \(error.message)", code: "invalid_transaction")
            }
            let trial = transaction.offerType == 1 && transaction.payload["offerDiscountType"]?.stringValue == "FREE_TRIAL"
            let facts = AppStoreTransactionFacts(transaction)
            let act = PurchaseSyncAct(facts, trial: trial, user: user, appID: key.app.appID, testKey: key.mode == .test)
            let metadata = EventMetadata(actor: Actor(.service, "sdk:\(key.app.appID)"), requestID: request.requestID)
            return try context.perform(act, metadata: metadata) { outcome, _ in
                switch outcome {
                case .appended(let r):
                    return .json([
                        "status": "synced", "recorded": .bool(!r.replayed), "position": .integer(r.position),
                        "transaction_id": .string(ExternalID.text(facts.transactionID)),
                        "original_transaction_id": .string(ExternalID.text(facts.originalTransactionID)),
                        "product_id": .string(ExternalID.text(facts.productID)),
                    ] as JSONValue)
                case .refused(let refusal) where refusal.code == .transactionConflict:
                    return CatalogError(status: 409, error: refusal.message, code: refusal.code.rawValue).response
                case .refused(let refusal):
                    return CatalogError(status: 422, error: refusal.message, code: "invalid_transaction").response
                default:
                    throw outcome.failure
                }
            }
        } catch let error as CatalogError {
            return error.response
        }
    }
}
