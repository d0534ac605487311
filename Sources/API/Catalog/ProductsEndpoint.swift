import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices

/// `GET /v1/iap/products`: the app's catalog, checkout configuration, trial eligibility
/// and the offer for the user, exactly in the seed's schema.
enum ProductsEndpoint {
    static func handle(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        do {
            let key = try PublishableKey.authenticate(request, context.catalog)
            // An empty user_id is no user: the SDK sends one only when it has one.
            let userID = request.query("user_id").flatMap { $0.isEmpty ? nil : $0 }
            if let userID { try UserID.check(userID) }
            // Test keys only; live keys and unknown values silently ignore it (seed).
            let demo = key.mode == .test ? request.query("demo").flatMap(CatalogResolver.Demo.init(rawValue:)) : nil
            guard let userID else { return respond(key: key, userID: nil, purchases: [], demo: demo, context: context) }
            // The user's purchases: the one database read of this endpoint.
            return try context.answer(UserPurchasesQuery(app: key.app.appID, user: userID), as: .app(key.app.appID),
                                      atLeast: try ReadYourWrites.minimumPosition(request), since: request.receivedAt,
                                      notFound: { CatalogError.invalidKey() }) { purchases in
                respond(key: key, userID: userID, purchases: purchases, demo: demo, context: context)
            }
        } catch let error as CatalogError {
            return error.response
        }
    }

    private static func respond(key: PublishableKey, userID: String?, purchases: [UserPurchase], demo: CatalogResolver.Demo?,
                                context: ServiceContext) -> HTTPResponse {
        let view = CatalogResolver(catalog: key.app).resolve(userID: userID, purchases: purchases, demo: demo, now: context.now())
        if let impression = view.impression {
            context.catalog.count(app: key.app.appID, campaign: impression.campaignID, variant: impression.variantID)
        }
        var response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                    body: view.jsonValue.compactBytes(sortedKeys: true))
        // Per key and per user: never shared by caches.
        response.headers.replaceOrAdd(name: "Cache-Control", value: "private, no-store")
        return response
    }
}
