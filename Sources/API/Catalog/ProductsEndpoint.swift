import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Projections

/// `GET /v1/iap/products`: the app's catalog, checkout configuration, trial eligibility
/// and the offer for the user, exactly in the seed's schema.
enum ProductsEndpoint {
    static func handle(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        do {
            let snapshot = try context.catalog.snapshot()
            let key = try PublishableKey.authenticate(request, snapshot)
            // An empty user_id is no user: the SDK sends one only when it has one.
            let userID = request.query("user_id").flatMap { $0.isEmpty ? nil : $0 }
            if let userID { try UserID.check(userID) }
            // Test keys only; live keys and unknown values silently ignore it (seed).
            let demo = key.mode == .test ? request.query("demo").flatMap(CatalogResolver.Demo.init(rawValue:)) : nil
            let purchases = try userID.map { user in
                try context.reading(CatalogProjection(), for: request) { try CatalogSnapshot.purchases(app: key.app.appID, user: user, pool: $0) }
            } ?? []
            let view = CatalogResolver(catalog: key.app).resolve(userID: userID, purchases: purchases, demo: demo, now: context.now())
            if let impression = view.impression {
                context.catalog.count(app: key.app.appID, campaign: impression.campaignID, variant: impression.variantID)
            }
            var response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                        body: view.jsonValue.compactBytes(sortedKeys: true))
            // Per key and per user: never shared by caches.
            response.headers.replaceOrAdd(name: "Cache-Control", value: "private, no-store")
            return response
        } catch let error as CatalogError {
            return error.response
        }
    }
}
