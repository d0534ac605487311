import LedgerJSON

extension AppStoreTransactionRecorded: JSONFastDecodable {
    /// The members, required first, in the order `init(flat:)` reads them.
    private static let keys: [StaticString] = [
        "org_id", "original_transaction_id", "transaction_id", "product_id", "plan", "purchase_date", "signed_date",
        "environment", "via", "expired_when_recorded",
        "expires_date", "revocation_date", "person_id", "in_app_ownership_type", "offer_type", "offer_identifier",
        "offer_discount_type",
    ]
    private static let required = 10

    /// The ordinary shape: the required members and any of the optional ones, nothing else,
    /// each of its own kind (an optional one may be `null`); anything else goes through
    /// `Codable`. Two projections fold every one of these (organizations, webhooks).
    public init?(fastJSON value: JSONValue) {
        guard let members = JSONFlatObject.members(of: value, keys: Self.keys, required: Self.required) else { return nil }
        self.init(flat: members)
    }

    /// The same shape, read from the text without a value tree.
    public init?(fastJSONText text: String) {
        guard let members = JSONFlatObject.members(of: text, keys: Self.keys, required: Self.required) else { return nil }
        self.init(flat: members)
    }

    private init?(flat m: [JSONFlatObject.Member?]) {
        func string(_ i: Int) -> String? {
            guard case .string(let s)? = m[i] else { return nil }
            return s
        }
        func instant(_ i: Int) -> Timestamp? { string(i).flatMap(Timestamp.init(iso8601:)) }
        /// Absent or null: nil; a string: `.some`; anything else: no value at all.
        func optionalString(_ i: Int) -> String?? {
            switch m[i] {
            case nil, .null?: return .some(nil)
            case .string(let s)?: return s
            default: return nil
            }
        }
        func optionalInstant(_ i: Int) -> Timestamp?? {
            guard let text = optionalString(i) else { return nil }
            guard let text else { return .some(nil) }
            return Timestamp(iso8601: text).map { .some($0) }
        }
        let offerType: Int?
        switch m[14] {
        case nil, .null?: offerType = nil
        case .integer(let n)?: offerType = Int(n)
        default: return nil
        }
        guard let orgID = string(0), let originalTransactionID = string(1), let transactionID = string(2),
              let productID = string(3), let plan = string(4).flatMap(Plan.init(rawValue:)),
              let purchaseDate = instant(5), let signedDate = instant(6), let environment = string(7), let via = string(8),
              case .bool(let expiredWhenRecorded)? = m[9],
              let expiresDate = optionalInstant(10), let revocationDate = optionalInstant(11),
              let personID = optionalString(12), let ownership = optionalString(13), let offerIdentifier = optionalString(15),
              let offerDiscountType = optionalString(16) else { return nil }
        self.init(orgID: orgID, originalTransactionID: originalTransactionID, transactionID: transactionID, productID: productID,
                  plan: plan, purchaseDate: purchaseDate, expiresDate: expiresDate, revocationDate: revocationDate,
                  signedDate: signedDate, environment: environment, personID: personID, via: via,
                  expiredWhenRecorded: expiredWhenRecorded, inAppOwnershipType: ownership, offerType: offerType,
                  offerIdentifier: offerIdentifier, offerDiscountType: offerDiscountType)
    }
}
