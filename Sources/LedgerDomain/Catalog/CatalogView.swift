import LedgerJSON

/// The answer of `GET /v1/iap/products` for one request, before it is written as the
/// seed's JSON (`jsonValue`).
public struct CatalogView: Sendable {
    public var products: [ProductView]
    public var checkout: CheckoutConfig
    /// The app's active migration campaign, nil when none is configured.
    public var migration: MigrationView?
    public var offer: OfferView?
    /// The campaign and variant whose offer was served, to count; nil for demo previews.
    public var impression: (campaignID: String, variantID: Int64?)?
}

public struct ProductView: Sendable {
    public var product: CatalogProduct
    public var storeKitPrice: Price?
    /// nil without `user_id`.
    public var isTrialEligible: Bool?
    /// Only for an eligible user of a product with a trial.
    public var trial: TrialView?
}

public struct TrialView: Sendable, Hashable {
    public var mode: TrialMode
    public var duration: String
    public var upfrontAmountCents: Int
    public var holdAmountCents: Int
    /// A real or pending charge verifies the card.
    public var validatesCard: Bool { mode != .free }
}

public struct MigrationView: Sendable {
    public var campaign: MigrationCampaignConfig
    public var shouldShow: Bool
    public var variantID: Int64?
}

public struct UpgradeView: Sendable {
    public var campaign: UpgradeOfferConfig
    public var path: UpgradeOfferConfig.Path
    public var savingsPercent: Int
    public var variantID: Int64?
}

public enum OfferView: Sendable {
    case migration(MigrationView)
    case upgrade(UpgradeView)

    public var campaignID: String {
        switch self {
        case .migration(let m): m.campaign.campaignID
        case .upgrade(let u): u.campaign.campaignID
        }
    }

    public var variantID: Int64? {
        switch self {
        case .migration(let m): m.variantID
        case .upgrade(let u): u.variantID
        }
    }
}
