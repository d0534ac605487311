/// A product a user holds now, from one source: what `GET /v1/iap/entitlements`, the
/// console's user page and `ledger admin user show` list (`EntitlementResolver`).
public struct Entitlement: Sendable, Hashable {
    /// Who told the ledger of it.
    public enum RecordedBy: String, Sendable, Hashable, Codable {
        /// A StoreKit 2 transaction an SDK synced, verified against Apple's root.
        case appStore = "app_store"
        /// The payment processor's signed events.
        case stripe
        /// An operator's correction (`ledger admin purchase record`).
        case `operator`
    }

    /// The trial it is in.
    public struct Trial: Sendable, Hashable {
        /// The catalog's trial mode for the product (`free` when the product names none).
        public var mode: TrialMode
        public var endsAt: Timestamp?
        /// A `paid` trial's upfront charge, in the currency's smallest unit.
        public var upfrontPaid: Int64?
        /// An `auth_hold` trial's hold.
        public var hold: WebSubscription.Hold?
    }

    public var productID: String
    public var source: PurchaseSource
    /// The subscription (`originalTransactionId`, `sub_…`) or purchase (`cs_…`, the
    /// transaction) that grants it.
    public var purchaseID: String
    /// `active`, `trialing`, `past_due` (Stripe retrying a renewal), or `purchased` (a
    /// product that does not expire).
    public var status: String
    public var expiresAt: Timestamp?
    /// Whether it renews at `expiresAt`; nil when the ledger cannot know (a StoreKit
    /// transaction does not carry the renewal status: the SDK reads it from StoreKit).
    public var willRenew: Bool?
    public var trial: Trial?
    public var recordedBy: RecordedBy
}
