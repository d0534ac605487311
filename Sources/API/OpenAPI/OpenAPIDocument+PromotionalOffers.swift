import LedgerJSON

extension OpenAPIDocument {
    /// The bodies of `POST /v1/appstore/offers/signature`.
    static var promotionalOfferSchemas: [String: JSONValue] {
        return [
            "PromotionalOfferRequest": [
                "type": "object",
                "required": ["product_id", "offer_id"],
                "properties": [
                    "product_id": ["type": "string", "minLength": 1, "maxLength": 200,
                                   "description": "An auto-renewable subscription of the app's catalog: printable ASCII without spaces."],
                    "offer_id": ["type": "string", "minLength": 1, "maxLength": 200,
                                 "description": "The promotional offer's identifier, as set up in App Store Connect: printable ASCII without spaces."],
                    "app_account_token": ["type": ["string", "null"],
                                          "description": "The purchase's appAccountToken (a UUID, signed in lowercase), or empty or absent to sign the empty string."],
                    "nonce": ["type": ["string", "null"], "format": "uuid",
                              "description": "The app's own nonce; absent, the server makes one (UUID v4)."],
                    "timestamp": ["type": ["integer", "null"], "format": "int64", "minimum": 0,
                                  "description": "The app's own time in Unix milliseconds, within 300 seconds of the server's clock; absent, the server's."],
                ],
            ],
            "PromotionalOfferSignature": object([
                "product_id": ["type": "string"],
                "offer_id": ["type": "string"],
                "app_account_token": ["type": "string", "description": "As signed: a lowercase UUID, or empty."],
                "key_id": ["type": "string", "description": "The promotional offer key's identifier (`keyID`, `keyIdentifier`)."],
                "nonce": ["type": "string", "format": "uuid", "description": "As signed: lowercase."],
                "timestamp": ["type": "integer", "format": "int64", "description": "As signed: Unix milliseconds."],
                "signature": ["type": "string",
                              "description": "ECDSA P-256 with SHA-256 over Apple's payload (appBundleID, keyIdentifier, productIdentifier, offerIdentifier, appAccountToken, nonce, timestamp joined by U+2063), DER, base64."],
            ], required: ["product_id", "offer_id", "app_account_token", "key_id", "nonce", "timestamp", "signature"]),
        ]
    }
}
