import HTTP
import LedgerJSON

/// Registers the App Store surface: the offer (O), recording a transaction (T) and Apple's
/// Server Notifications V2 (N).
enum AppStoreEndpoints {
    static func register(in router: inout Router, context: ServiceContext) {
        let settings = context.appStore
        let orgParameter: JSONValue = ["name": "org_id", "in": "path", "required": true, "schema": ["type": "string"]]
        router.add("GET", "/v1/orgs/{org_id}/appstore/offer", operation: [
            "operationId": "getAppStoreOffer", "tags": ["App Store"],
            "summary": "What the organization can buy through the App Store, and its account token (O1–O13).",
            "description": "For a designated administrator of the active organization. Staff and the administrators of the organization's reseller see it without products and with the all-zero token; anybody else gets 404. Private: Cache-Control: private, no-store.",
            "security": [["session": []]], "parameters": [orgParameter],
            "responses": [
                "200": ["description": "The offer.", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/AppStoreOffer"]]]],
                "401": OpenAPIOperations.problem("No valid session."),
                "404": OpenAPIOperations.problem("No such organization for this session (existence is not revealed)."),
            ],
        ]) { request in
            try OfferEndpoint.handle(request, context: context, settings: settings)
        }
    }
}
