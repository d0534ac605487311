/// A price in micros (1/1,000,000 of the currency unit) with its ISO 4217 currency: the
/// seed's `Price`.
public struct Price: Codable, Sendable, Hashable {
    public var amountMicros: Int64
    public var currencyCode: String
    enum CodingKeys: String, CodingKey { case amountMicros = "amount_micros", currencyCode = "currency_code" }
    public init(amountMicros: Int64, currencyCode: String) {
        self.amountMicros = amountMicros
        self.currencyCode = currencyCode
    }

    /// Whether the currency is three upper-case ASCII letters and the amount not negative.
    public var isValid: Bool {
        amountMicros >= 0 && currencyCode.utf8.count == 3 && currencyCode.utf8.allSatisfy { (65...90).contains($0) }
    }
}

/// The four product types of the seed.
public enum ProductType: String, Codable, Sendable, Hashable, CaseIterable {
    case consumable
    case nonConsumable = "non_consumable"
    case nonRenewingSubscription = "non_renewing_subscription"
    case autoRenewableSubscription = "auto_renewable_subscription"
}

/// How a trial is collected (seed `Product.trial.mode`).
public enum TrialMode: String, Codable, Sendable, Hashable, CaseIterable {
    case free, paid
    case authHold = "auth_hold"
}

/// A product of an app's catalog as configured by an operator. The StoreKit price is not
/// here: it arrives by its own price-sync event.
public struct CatalogProduct: Codable, Sendable, Hashable {
    /// The trial's collection, for a product with `freeTrialDuration`.
    public struct Trial: Codable, Sendable, Hashable {
        public var mode: TrialMode
        /// `paid`: the upfront charge, in cents.
        public var upfrontAmountCents: Int
        /// `auth_hold`: the authorization hold, in cents.
        public var holdAmountCents: Int
        enum CodingKeys: String, CodingKey {
            case mode, upfrontAmountCents = "upfront_amount_cents", holdAmountCents = "hold_amount_cents"
        }
        public init(mode: TrialMode, upfrontAmountCents: Int = 0, holdAmountCents: Int = 0) {
            self.mode = mode
            self.upfrontAmountCents = upfrontAmountCents
            self.holdAmountCents = holdAmountCents
        }
    }

    public var id: String
    public var displayName: String
    public var description: String
    public var type: ProductType
    public var webPrice: Price?
    /// Subscriptions only; Apple's rule is one trial per group.
    public var subscriptionGroupID: Int64?
    /// ISO 8601 billing period (`P1M`, `P1Y`) of a subscription: how savings are annualized.
    public var subscriptionPeriod: String?
    /// ISO 8601 duration of the free trial (`P7D`), nil without a trial.
    public var freeTrialDuration: String?
    public var trial: Trial?

    enum CodingKeys: String, CodingKey {
        case id, type, trial
        case displayName = "display_name", description = "product_description", webPrice = "web_price"
        case subscriptionGroupID = "subscription_group_id", subscriptionPeriod = "subscription_period"
        case freeTrialDuration = "free_trial_duration"
    }

    public init(id: String, displayName: String, description: String, type: ProductType, webPrice: Price? = nil,
                subscriptionGroupID: Int64? = nil, subscriptionPeriod: String? = nil, freeTrialDuration: String? = nil,
                trial: Trial? = nil) {
        self.id = id
        self.displayName = displayName
        self.description = description
        self.type = type
        self.webPrice = webPrice
        self.subscriptionGroupID = subscriptionGroupID
        self.subscriptionPeriod = subscriptionPeriod
        self.freeTrialDuration = freeTrialDuration
        self.trial = trial
    }

    /// What is wrong with this configuration, for `ledger admin product set`; empty when
    /// nothing is.
    public var problems: [String] {
        var out: [String] = []
        if id.isEmpty || id.count > 200 { out.append("the product id must have 1 to 200 characters") }
        if let webPrice, !webPrice.isValid { out.append("the web price needs a non-negative amount and an ISO 4217 currency") }
        let subscription = type == .autoRenewableSubscription || type == .nonRenewingSubscription
        if subscriptionGroupID != nil && !subscription { out.append("only subscriptions belong to a subscription group") }
        if type == .autoRenewableSubscription && subscriptionGroupID == nil { out.append("an auto-renewable subscription needs a subscription group") }
        if let period = subscriptionPeriod, ISODuration(period) == nil { out.append("the subscription period \(period) is not an ISO 8601 duration") }
        if let duration = freeTrialDuration {
            if ISODuration(duration) == nil { out.append("the free trial duration \(duration) is not an ISO 8601 duration") }
            if type != .autoRenewableSubscription { out.append("only auto-renewable subscriptions have a free trial") }
        }
        if let trial {
            if freeTrialDuration == nil { out.append("a trial mode needs a free trial duration") }
            if trial.upfrontAmountCents < 0 || trial.holdAmountCents < 0 { out.append("trial amounts cannot be negative") }
            if trial.mode != .paid && trial.upfrontAmountCents != 0 { out.append("only a paid trial has an upfront amount") }
            if trial.mode != .authHold && trial.holdAmountCents != 0 { out.append("only an auth_hold trial has a hold amount") }
            if trial.mode == .paid && trial.upfrontAmountCents == 0 { out.append("a paid trial needs an upfront amount") }
            if trial.mode == .authHold && trial.holdAmountCents == 0 { out.append("an auth_hold trial needs a hold amount") }
        }
        return out
    }
}
