import AppStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices

/// `POST /v1/appstore/offers/signature`: authenticate the app's publishable key, parse the
/// body, sign with `PromotionalOfferSigning`, render. Every refusal is a problem.
enum PromotionalOfferEndpoint {
    /// Seconds a client is told to wait when no key is configured: the configuration is
    /// read when `ledger serve` starts, so nothing changes before an operator restarts it.
    static let notConfiguredRetryAfter = 600

    static func handle(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        let key: PublishableKey
        do {
            key = try PublishableKey.authenticate(request, context.catalog)
        } catch let error as CatalogError {
            // The catalog's codes, in this surface's shape.
            throw Problem(status: error.status, code: error.code, detail: error.error)
        }
        let offer = try PromotionalOfferEndpoint.request(from: try request.jsonBody())
        let signature: PromotionalOfferSignature
        do {
            signature = try context.offerSigning.sign(offer, app: key.app, now: context.now())
        } catch {
            throw problem(for: error)
        }
        var response = HTTPResponse.json([
            "product_id": .string(signature.payload.productID),
            "offer_id": .string(signature.payload.offerID),
            "app_account_token": .string(signature.payload.appAccountToken?.uuidString.lowercased() ?? ""),
            "key_id": .string(signature.keyID),
            "nonce": .string(signature.nonce),
            "timestamp": .integer(signature.timestamp),
            "signature": .string(signature.base64),
        ] as JSONValue)
        // One signature per request, for one app: never shared by caches.
        response.headers.replaceOrAdd(name: "Cache-Control", value: "private, no-store")
        return response
    }

    static func problem(for refusal: PromotionalOfferRefusal) -> Problem {
        switch refusal.code {
        case .offerKeyNotConfigured:
            return Problem(status: 503, code: refusal.code.rawValue, detail: refusal.message, retryAfter: notConfiguredRetryAfter)
        case .invalidOfferID:
            return Problem(status: 400, code: refusal.code.rawValue, detail: refusal.message)
        default:
            return Problem(status: 422, code: refusal.code.rawValue, detail: refusal.message)
        }
    }
}
