extension Refusal.Code {
    public static let alreadyDisabled = Refusal.Code("already_disabled")
    public static let alreadyEnabled = Refusal.Code("already_enabled")
    /// A campaign that ended or was replaced.
    public static let notActive = Refusal.Code("not_active")
    /// A product or campaign id an active campaign needs.
    public static let inUse = Refusal.Code("in_use")
    /// A campaign that sells on the web a product with no web price.
    public static let noWebPrice = Refusal.Code("no_web_price")
    /// A purchase its product's type does not allow.
    public static let invalidPurchase = Refusal.Code("invalid_purchase")
    /// An instant later than now, where only the past makes sense.
    public static let inFuture = Refusal.Code("in_future")
    /// A StoreKit transaction synced before for another user of the app.
    public static let transactionConflict = Refusal.Code("transaction_conflict")
    /// Not a Stripe account id (`acct_…`).
    public static let invalidStripeAccount = Refusal.Code("invalid_stripe_account")
}
