/// The offer a transaction was bought with, as Apple signed it on the transaction
/// (`offerType`, `offerIdentifier`, `offerDiscountType`; docs/appstore.md, "Lifecycle").
public struct AppStoreOfferAttribution: Sendable, Hashable {
    /// Apple's `offerType` codes.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case introductory, promotional
        case offerCode = "offer_code"
        case winBack = "win_back"

        /// Apple's code: 1 introductory, 2 promotional, 3 offer code, 4 win-back; nil for another.
        public init?(code: Int) {
            switch code {
            case 1: self = .introductory
            case 2: self = .promotional
            case 3: self = .offerCode
            case 4: self = .winBack
            default: return nil
            }
        }
    }

    /// Apple's `offerType` as signed; `kind` names it when it is one Apple documents.
    public var code: Int
    /// `offerIdentifier`: the promotional offer's or offer code's reference name; nil for
    /// an introductory offer, which has none.
    public var identifier: String?
    /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO` or `PAY_UP_FRONT`, when Apple sends it.
    public var discountType: String?

    public var kind: Kind? { Kind(code: code) }

    public init(code: Int, identifier: String?, discountType: String?) {
        self.code = code
        self.identifier = identifier
        self.discountType = discountType
    }

    /// `offer_code (SPRING, FREE_TRIAL)`: how the console and `ledger admin org show` write it.
    public var summary: String {
        let name = kind?.rawValue ?? "offer type \(code)"
        let details = [identifier, discountType].compactMap { $0 }
        return details.isEmpty ? name : "\(name) (\(details.joined(separator: ", ")))"
    }
}
