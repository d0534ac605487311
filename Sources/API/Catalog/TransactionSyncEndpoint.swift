import AppStore
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON

/// `POST /v1/iap/transactions`: the SDK syncs a StoreKit 2 transaction into the user's
/// purchase history with the app (trial eligibility and campaign targeting read it).
enum TransactionSyncEndpoint {
    static func handle(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        do {
            let key = try PublishableKey.authenticate(request, try context.catalog.snapshot())
            guard let body = try? JSONValue.parse(request.body), body.objectValue != nil else {
                throw CatalogError.badRequest("the body must be a JSON object {\"user_id\": …, \"jws_representation\": …}", code: "invalid_body")
            }
            guard let user = body["user_id"]?.stringValue, !user.isEmpty, user.utf8.count <= 256 else {
                throw CatalogError.badRequest("user_id must be a non-empty string of at most 256 bytes", code: "invalid_body")
            }
            guard let jws = body["jws_representation"]?.stringValue else {
                throw CatalogError.badRequest("jws_representation must be the transaction's JWS (Transaction.jwsRepresentation)", code: "invalid_body")
            }
            let verifier = AppStoreVerifier(policy: context.appStore.verifier.policy, bundleID: key.app.bundleID)
            let transaction: AppStoreTransaction
            do {
                transaction = try verifier.verifyTransaction(jws)
            } catch {
                throw CatalogError(status: 422, error: "The transaction does not verify: \(error.message)", code: "invalid_transaction")
            }
            // A test key is a sandbox: it never records real money.
            if key.mode == .test && transaction.environment == AppStoreEnvironmentPolicy.Environment.production {
                throw CatalogError(status: 422, error: "A Production transaction cannot be synced with a test key.", code: "invalid_transaction")
            }
            let purchase = PurchaseRecorded(
                appID: key.app.appID, userID: user, source: .storekit, purchaseID: transaction.transactionID,
                originalID: transaction.originalTransactionID, productID: transaction.productID,
                purchasedAt: transaction.purchaseDate, expiresAt: transaction.expiresDate, revokedAt: transaction.revocationDate,
                trial: transaction.offerType == 1 && transaction.payload["offerDiscountType"]?.stringValue == "FREE_TRIAL",
                environment: transaction.environment)
            // The same transaction again is answered as before; its refund is a new fact.
            let idempotency = "iap-purchase:\(key.app.appID):storekit:\(transaction.transactionID)"
                + (transaction.revocationDate == nil ? "" : ":revoked")
            // User ids are the app's own and may hold any character: they stay out of stream names.
            let event = EventToAppend(stream: "app-\(key.app.appID)-purchases", type: PurchaseRecorded.type,
                                      data: try JSONValueEncoder().encode(purchase),
                                      metadata: EventMetadata(actor: Actor(.service, "sdk:\(key.app.appID)"), requestID: request.requestID),
                                      occurredAt: transaction.signedDate, idempotencyKey: idempotency)
            let result: AppendResult
            switch Result(catching: { () throws(AppendError) -> AppendResult in try context.appendAndWait(AppendRequest(events: [event])) }) {
            case .success(let r): result = r
            case .failure(let e) where e.code == .idempotencyConflict:
                throw CatalogError(status: 409, error: "Transaction \(transaction.transactionID) was synced before for another user.",
                                   code: "transaction_conflict")
            case .failure(let e): throw e
            }
            return .json([
                "status": "synced", "recorded": .bool(!result.replayed), "position": .integer(result.position),
                "transaction_id": .string(transaction.transactionID),
                "original_transaction_id": .string(transaction.originalTransactionID),
                "product_id": .string(transaction.productID),
            ] as JSONValue)
        } catch let error as CatalogError {
            return error.response
        }
    }
}
