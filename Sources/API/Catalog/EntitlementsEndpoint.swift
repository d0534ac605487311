import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices

/// `GET /v1/iap/entitlements?user_id=`: every product the user holds now with the key's
/// app, across StoreKit and the web (`EntitlementsQuery`), in the seed's `Error` shape for
/// every refusal; `min_position` as everywhere.
enum EntitlementsEndpoint {
    static func handle(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        do {
            let key = try PublishableKey.authenticate(request, context.catalog)
            guard let userID = request.query("user_id"), !userID.isEmpty else {
                throw CatalogError.badRequest("user_id is required: the app's id of the user whose entitlements to read", code: "invalid_request")
            }
            try UserID.check(userID)
            return try context.answer(EntitlementsQuery(app: key.app.appID, user: userID, catalog: key.app), as: .app(key.app.appID),
                                      atLeast: try ReadYourWrites.minimumPosition(request), since: request.receivedAt,
                                      notFound: { CatalogError.invalidKey() }) { view in
                var response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                            body: view.jsonValue.compactBytes(sortedKeys: true))
                response.headers.replaceOrAdd(name: "Cache-Control", value: "private, no-store")
                return response
            }
        } catch let error as CatalogError {
            return error.response
        }
    }
}
