import LedgerDomain
import LedgerJSON

extension EntitlementsView {
    /// The answer of `GET /v1/iap/entitlements` (schema `Entitlements`), which `ledger admin
    /// user show --json` prints too.
    public var jsonValue: JSONValue {
        [
            "user_id": .string(userID),
            "entitlements": .array(entitlements.map(\.jsonValue)),
            "as_of": .string(asOf.iso8601),
            "position": .integer(position),
        ]
    }
}

extension Entitlement {
    /// One entry of `Entitlements`: nullable fields present and null.
    public var jsonValue: JSONValue {
        [
            "product_id": .string(productID),
            "source": .string(source.rawValue),
            "purchase_id": .string(purchaseID),
            "status": .string(status),
            "expires_at": expiresAt.map { .string($0.iso8601) } ?? .null,
            "will_renew": willRenew.map(JSONValue.bool) ?? .null,
            "trial": trial.map { t in
                [
                    "mode": .string(t.mode.rawValue),
                    "ends_at": t.endsAt.map { .string($0.iso8601) } ?? .null,
                    "upfront_amount_cents": t.upfrontPaid.map(JSONValue.integer) ?? .null,
                    "hold": t.hold.map { .string($0.rawValue) } ?? .null,
                ] as JSONValue
            } ?? .null,
            "recorded_by": .string(recordedBy.rawValue),
        ]
    }
}
