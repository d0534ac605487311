import LedgerJSON

/// The copy of every tip card state (the seed's `OfferDisplay`); an empty string tells
/// the SDK to use its own default.
public struct OfferDisplay: Codable, Sendable, Hashable {
    public var offerTitle = "", offerMessage = "", offerCTA = ""
    public var acceptedTitle = "", acceptedMessage = "", acceptedCTA = ""
    public var completedTitle = "", completedMessage = ""
    enum CodingKeys: String, CodingKey {
        case offerTitle = "offer_title", offerMessage = "offer_message", offerCTA = "offer_cta"
        case acceptedTitle = "accepted_title", acceptedMessage = "accepted_message", acceptedCTA = "accepted_cta"
        case completedTitle = "completed_title", completedMessage = "completed_message"
    }
    public init() {}
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String { try c.decodeIfPresent(String.self, forKey: key) ?? "" }
        offerTitle = try text(.offerTitle); offerMessage = try text(.offerMessage); offerCTA = try text(.offerCTA)
        acceptedTitle = try text(.acceptedTitle); acceptedMessage = try text(.acceptedMessage); acceptedCTA = try text(.acceptedCTA)
        completedTitle = try text(.completedTitle); completedMessage = try text(.completedMessage)
    }
}

/// An experiment arm: users are assigned to variants in proportion to their weights.
public struct CampaignVariant: Codable, Sendable, Hashable {
    public var id: Int64
    public var weight: Int
    public init(id: Int64, weight: Int) {
        self.id = id
        self.weight = weight
    }
}

/// How the SDK presents checkout from the tip card.
public enum CheckoutPresentation: String, Codable, Sendable, Hashable, CaseIterable { case inline, sheet }

/// What a migration and an upgrade campaign share: who sees it and how.
public struct CampaignTargeting: Codable, Sendable, Hashable {
    public var minSubscriptionDays: Int
    public var maxSubscriptionDays: Int?
    public var freeTrialDays: Int
    /// 0–100: the share of eligible users who see the offer.
    public var rolloutPercent: Int
    /// Empty: no experiment (`variant_id` null).
    public var variants: [CampaignVariant]
    public var display: OfferDisplay
    public var perProductPrompts: JSONValue?
    public var checkoutPresentation: CheckoutPresentation?

    enum CodingKeys: String, CodingKey {
        case variants, display
        case minSubscriptionDays = "min_subscription_days", maxSubscriptionDays = "max_subscription_days"
        case freeTrialDays = "free_trial_days", rolloutPercent = "rollout_percent"
        case perProductPrompts = "per_product_prompts", checkoutPresentation = "checkout_presentation"
    }

    public init(minSubscriptionDays: Int = 0, maxSubscriptionDays: Int? = nil, freeTrialDays: Int = 0, rolloutPercent: Int = 100,
                variants: [CampaignVariant] = [], display: OfferDisplay = OfferDisplay(), perProductPrompts: JSONValue? = nil,
                checkoutPresentation: CheckoutPresentation? = nil) {
        self.minSubscriptionDays = minSubscriptionDays
        self.maxSubscriptionDays = maxSubscriptionDays
        self.freeTrialDays = freeTrialDays
        self.rolloutPercent = rolloutPercent
        self.variants = variants
        self.display = display
        self.perProductPrompts = perProductPrompts
        self.checkoutPresentation = checkoutPresentation
    }

    /// What is wrong with it; empty when nothing is.
    public var problems: [String] {
        var out: [String] = []
        if minSubscriptionDays < 0 { out.append("min_subscription_days cannot be negative") }
        if let max = maxSubscriptionDays, max < minSubscriptionDays { out.append("max_subscription_days is below min_subscription_days") }
        if freeTrialDays < 0 { out.append("free_trial_days cannot be negative") }
        if !(0...100).contains(rolloutPercent) { out.append("rollout_percent must be 0 to 100") }
        if variants.contains(where: { $0.weight <= 0 }) { out.append("variant weights must be positive") }
        if Set(variants.map(\.id)).count != variants.count { out.append("variant ids must differ") }
        if let prompts = perProductPrompts, prompts.objectValue == nil { out.append("per_product_prompts must be a JSON object") }
        return out
    }
}

/// Switch & Save: StoreKit subscribers of `eligibleProductIDs` are offered `productID` on
/// the web at `discountPercent` off.
public struct MigrationCampaignConfig: Codable, Sendable, Hashable {
    public var campaignID: String
    public var productID: String
    public var eligibleProductIDs: [String]
    public var discountPercent: Int
    public var title: String
    public var message: String
    public var targeting: CampaignTargeting

    enum CodingKeys: String, CodingKey {
        case title, message, targeting
        case campaignID = "campaign_id", productID = "product_id", eligibleProductIDs = "eligible_product_ids"
        case discountPercent = "discount_percent"
    }

    public init(campaignID: String, productID: String, eligibleProductIDs: [String], discountPercent: Int, title: String,
                message: String, targeting: CampaignTargeting) {
        self.campaignID = campaignID
        self.productID = productID
        self.eligibleProductIDs = eligibleProductIDs
        self.discountPercent = discountPercent
        self.title = title
        self.message = message
        self.targeting = targeting
    }
}

/// Upgrade & Save: holders of a path's `from` product are offered its `to` product.
public struct UpgradeOfferConfig: Codable, Sendable, Hashable {
    /// Where the user's current subscription is billed, and where the upgrade is.
    public enum UpgradeType: String, Codable, Sendable, Hashable, CaseIterable {
        case storekitToWeb = "storekit_to_web"
        case webToWeb = "web_to_web"
    }

    public struct Path: Codable, Sendable, Hashable {
        public var fromProductID: String
        public var toProductID: String
        public var upgradeType: UpgradeType
        enum CodingKeys: String, CodingKey {
            case fromProductID = "from_product_id", toProductID = "to_product_id", upgradeType = "upgrade_type"
        }
        public init(fromProductID: String, toProductID: String, upgradeType: UpgradeType) {
            self.fromProductID = fromProductID
            self.toProductID = toProductID
            self.upgradeType = upgradeType
        }
    }

    public var campaignID: String
    public var upgradePaths: [Path]
    public var targeting: CampaignTargeting

    enum CodingKeys: String, CodingKey {
        case targeting
        case campaignID = "campaign_id", upgradePaths = "upgrade_paths"
    }

    public init(campaignID: String, upgradePaths: [Path], targeting: CampaignTargeting) {
        self.campaignID = campaignID
        self.upgradePaths = upgradePaths
        self.targeting = targeting
    }
}
