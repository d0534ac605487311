import AppStore
import Foundation
import HTTP
import LedgerJSON
import LedgerServices

extension PromotionalOfferEndpoint {
    /// The longest product or offer identifier accepted.
    static let maximumIdentifierLength = 200

    /// The body, `{"product_id", "offer_id", "app_account_token"?, "nonce"?, "timestamp"?}`,
    /// as a request; each field that is wrong is a 400 naming it. Members not named here are
    /// ignored. `null` is the same as absent for the optional three.
    static func request(from body: JSONValue) throws(Problem) -> PromotionalOfferRequest {
        guard body.objectValue != nil else {
            throw Problem(status: 400, code: "invalid_body",
                          detail: "The body must be a JSON object {\"product_id\": …, \"offer_id\": …, \"app_account_token\"?: …, \"nonce\"?: …, \"timestamp\"?: …}.")
        }
        let productID = try identifier(body, "product_id", code: "invalid_product_id", what: "the subscription's product ID")
        let offerID = try identifier(body, "offer_id", code: "invalid_offer_id", what: "the promotional offer's identifier from App Store Connect")
        var token: UUID?
        switch body["app_account_token"] {
        case nil, .null?, .string("")?: token = nil
        case .string(let text)?:
            guard let uuid = UUID(uuidString: text) else {
                throw Problem(status: 400, code: "invalid_app_account_token",
                              detail: "app_account_token must be a UUID (the purchase's appAccountToken) or an empty string.")
            }
            token = uuid
        default:
            throw Problem(status: 400, code: "invalid_app_account_token", detail: "app_account_token must be a string: a UUID, or empty.")
        }
        var nonce: UUID?
        switch body["nonce"] {
        case nil, .null?: nonce = nil
        case .string(let text)?:
            guard let uuid = UUID(uuidString: text) else {
                throw Problem(status: 400, code: "invalid_nonce",
                              detail: "nonce must be a UUID (8-4-4-4-12 hexadecimal digits); omit it to have the server make one.")
            }
            nonce = uuid
        default:
            throw Problem(status: 400, code: "invalid_nonce", detail: "nonce must be a string holding a UUID; omit it to have the server make one.")
        }
        var timestamp: Int64?
        switch body["timestamp"] {
        case nil, .null?: timestamp = nil
        case .integer(let value)? where value >= 0: timestamp = value
        default:
            throw Problem(status: 400, code: "invalid_timestamp",
                          detail: "timestamp must be a whole number of Unix milliseconds (a JSON integer, not negative); omit it to have the server's clock.")
        }
        return PromotionalOfferRequest(productID: productID, offerID: offerID, appAccountToken: token, nonce: nonce, timestamp: timestamp)
    }

    /// A required identifier: 1 to 200 printable ASCII characters without spaces, which is
    /// what App Store Connect's identifiers are made of and what the payload can carry.
    private static func identifier(_ body: JSONValue, _ name: String, code: String, what: String) throws(Problem) -> String {
        guard let value = body[name] else {
            throw Problem(status: 400, code: "invalid_body", detail: "\(name) is missing: \(what) is required.")
        }
        guard let text = value.stringValue, !text.isEmpty, text.utf8.count <= maximumIdentifierLength,
              PromotionalOfferSigner.fitsPayload(text) else {
            throw Problem(status: 400, code: code,
                          detail: "\(name) must be \(what): a string of 1 to \(maximumIdentifierLength) printable ASCII characters without spaces.")
        }
        return text
    }
}
