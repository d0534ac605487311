/// Decides the IAP catalog's acts: apps and their keys, products, checkout and campaigns
/// (operators), purchases (operators and the SDKs) and offer impressions (the API). A
/// configuration act appends to `app-<id>` at the version it was judged on.
public enum CatalogDecider {
    public static func stream(_ app: String) -> String { "app-" + app }
    /// Every purchase of an app goes on one stream: user ids stay out of stream names.
    public static func purchasesStream(_ app: String) -> String { "app-\(app)-purchases" }

    public static func createApp(id: String, name: String, bundleID: String) throws(Refusal) -> Decision {
        try AccountsDecider.checkIdentifier(id, "app")
        return Decision(PendingEvent(AppCreated(appID: id, name: name, bundleID: bundleID), on: stream(id)),
                        expecting: [stream(id): .noStream])
    }

    public static func setEnabled(_ enabled: Bool, app: AppState) throws(Refusal) -> Decision {
        guard app.enabled != enabled else {
            throw enabled ? Refusal(.alreadyEnabled, "app \(app.appID) is already enabled")
                          : Refusal(.alreadyDisabled, "app \(app.appID) is already disabled")
        }
        return act(AppStatusChanged(appID: app.appID, enabled: enabled), app)
    }

    /// The Stripe account and mode the app's web checkout runs on (docs/web-checkout.md);
    /// the same again is refused as nothing to record.
    public static func configureStripe(accountID: String, mode: KeyMode, app: AppState) throws(Refusal) -> Decision {
        guard AppStripeConfigured.isAccountID(accountID) else {
            throw Refusal(.invalidStripeAccount, "a Stripe account id is acct_ followed by letters and digits, not \(ExternalID.text(accountID))")
        }
        if let current = app.stripe, current.accountID == accountID, current.mode == mode {
            throw Refusal(.alreadyExists, "app \(app.appID) already runs on Stripe account \(accountID) in \(mode.rawValue) mode")
        }
        return act(AppStripeConfigured(appID: app.appID, accountID: accountID, mode: mode), app)
    }

    /// A publishable key; only its SHA-256 and a recognisable prefix are kept.
    public static func issueKey(keyID: String, mode: KeyMode, sha256: String, prefix: String, app: AppState) throws(Refusal) -> Decision {
        guard app.keys[keyID] == nil else { throw Refusal(.alreadyExists, "key \(keyID) of app \(app.appID) exists already") }
        return act(AppKeyIssued(appID: app.appID, keyID: keyID, mode: mode, sha256: sha256, prefix: prefix), app)
    }

    public static func revokeKey(_ keyID: String, app: AppState) throws(Refusal) -> Decision {
        guard app.keys[keyID] != nil else { throw Refusal(.notFound, "key \(keyID) was never issued for app \(app.appID)") }
        guard !app.revokedKeys.contains(keyID) else { throw Refusal(.alreadyRevoked, "key \(keyID) of app \(app.appID) is already revoked") }
        return act(AppKeyRevoked(appID: app.appID, keyID: keyID), app)
    }

    /// Created or replaced whole. A campaign that sells the product on the web cannot do
    /// without its web price.
    public static func setProduct(_ product: CatalogProduct, app: AppState) throws(Refusal) -> Decision {
        let sellers = app.campaigns(selling: product.id)
        guard product.webPrice != nil || sellers.isEmpty else {
            throw Refusal(.inUse, "product \(product.id) is sold on the web by \(sellers.joined(separator: " and ")): it needs a --web-price while the campaign runs")
        }
        return act(ProductConfigured(appID: app.appID, product: product), app)
    }

    /// A campaign offering a product that is gone would show users a dead offer.
    public static func removeProduct(_ productID: String, app: AppState) throws(Refusal) -> Decision {
        _ = try app.requireProduct(productID)
        let naming = app.campaigns(naming: productID)
        guard naming.isEmpty else {
            throw Refusal(.inUse, "product \(productID) is named by \(naming.joined(separator: " and ")): end the campaign first")
        }
        return act(ProductRemoved(appID: app.appID, productID: productID), app)
    }

    public static func setStoreKitPrice(_ price: Price, productID: String, app: AppState) throws(Refusal) -> Decision {
        _ = try app.requireProduct(productID)
        return act(StoreKitPriceSynced(appID: app.appID, productID: productID, price: price), app)
    }

    public static func setCheckout(_ checkout: CheckoutConfig, app: AppState) -> Decision {
        act(CheckoutConfigured(appID: app.appID, checkout: checkout), app)
    }

    /// Switch & Save: its products must be in the catalog, the one it sells with a web price.
    public static func configureMigration(_ campaign: MigrationCampaignConfig, app: AppState) throws(Refusal) -> Decision {
        try checkCampaignID(campaign.campaignID, heldBy: ("upgrade", app.upgrade?.campaignID))
        try checkCampaign(products: [campaign.productID] + campaign.eligibleProductIDs, sold: [campaign.productID], app: app)
        return act(MigrationCampaignConfigured(appID: app.appID, campaign: campaign), app)
    }

    /// Upgrade & Save: every path's products in the catalog, each target with a web price.
    public static func configureUpgrade(_ campaign: UpgradeOfferConfig, app: AppState) throws(Refusal) -> Decision {
        try checkCampaignID(campaign.campaignID, heldBy: ("migration", app.migration?.campaignID))
        let paths = campaign.upgradePaths
        try checkCampaign(products: paths.flatMap { [$0.fromProductID, $0.toProductID] }, sold: paths.map(\.toProductID), app: app)
        return act(UpgradeOfferConfigured(appID: app.appID, campaign: campaign), app)
    }

    public static func endCampaign(_ campaignID: String, app: AppState) throws(Refusal) -> Decision {
        guard app.migration?.campaignID == campaignID || app.upgrade?.campaignID == campaignID else {
            if app.campaignIDs.contains(campaignID) {
                throw Refusal(.notActive, "campaign \(campaignID) of app \(app.appID) is not active: it has ended or been replaced")
            }
            throw Refusal(.notFound, "app \(app.appID) has no campaign \(campaignID)")
        }
        return act(CampaignEnded(appID: app.appID, campaignID: campaignID), app)
    }

    /// A web checkout purchase an operator records (one the checkout could not report):
    /// idempotent on the app and purchase id.
    public static func recordWebPurchase(user: String, productID: String, purchaseID: String, originalID: String?,
                                         at: Timestamp?, expires: Timestamp?, trial: Bool, now: Timestamp,
                                         app: AppState) throws(Refusal) -> Decision {
        guard let product = app.configured[productID] else {
            throw Refusal(.notFound, "product \(productID) was never in the catalog of app \(app.appID)")
        }
        let purchasedAt = at ?? now
        guard purchasedAt <= now else { throw Refusal(.inFuture, "--at \(purchasedAt.iso8601) is later than now (\(now.iso8601))") }
        if let expires, expires <= purchasedAt {
            throw Refusal(.invalidPurchase, "--expires must be after the purchase (\(purchasedAt.iso8601))")
        }
        switch product.type {
        case .autoRenewableSubscription, .nonRenewingSubscription:
            guard expires != nil else { throw Refusal(.invalidPurchase, "product \(productID) is a subscription: --expires is required") }
        case .consumable, .nonConsumable:
            guard expires == nil else {
                throw Refusal(.invalidPurchase, "product \(productID) is a \(product.type.rawValue) product, which does not expire: drop --expires")
            }
        }
        guard !trial || (product.type == .autoRenewableSubscription && product.freeTrialDuration != nil) else {
            throw Refusal(.invalidPurchase, "product \(productID) has no free trial, so a purchase of it cannot be a trial: drop --trial")
        }
        let event = PurchaseRecorded(appID: app.appID, userID: user, source: .web, purchaseID: purchaseID, originalID: originalID ?? purchaseID,
                                     productID: productID, purchasedAt: purchasedAt, expiresAt: expires, trial: trial, environment: nil)
        return Decision(PendingEvent(event, on: purchasesStream(app.appID), idempotencyKey: "iap-purchase:\(app.appID):web:\(purchaseID)"),
                        expecting: [stream(app.appID): .streamExists])
    }

    /// The SDK syncs a verified StoreKit 2 transaction into a user's purchase history with
    /// the app (trial eligibility and campaign targeting read it). The same transaction
    /// again is answered as before; its refund is a new fact. A test key never records a
    /// Production transaction: it is a sandbox.
    public static func syncTransaction(_ t: AppStoreTransactionFacts, trial: Bool, user: String, appID: String,
                                       testKey: Bool) throws(Refusal) -> Decision {
        if testKey && t.environment == "Production" {
            throw Refusal(.appStoreTransactionInvalid, "A Production transaction cannot be synced with a test key.")
        }
        let purchase = PurchaseRecorded(
            appID: appID, userID: user, source: .storekit, purchaseID: ExternalID.value(t.transactionID),
            originalID: ExternalID.value(t.originalTransactionID), productID: ExternalID.value(t.productID),
            purchasedAt: t.purchaseDate, expiresAt: t.expiresDate, revokedAt: t.revocationDate, trial: trial, environment: t.environment)
        let key = "iap-purchase:\(appID):storekit:\(ExternalID.key(t.transactionID))" + (t.revocationDate == nil ? "" : ":revoked")
        return Decision(PendingEvent(purchase, on: purchasesStream(appID), occurredAt: t.signedDate, idempotencyKey: key))
    }

    /// The offers one API process served for an app since its last flush.
    public static func countImpressions(appID: String, counts: [OfferImpressionsCounted.Count]) -> Decision {
        Decision(PendingEvent(OfferImpressionsCounted(appID: appID, counts: counts), on: stream(appID) + "-impressions"))
    }

    // MARK: - Checks

    static func act<E: DomainEvent>(_ event: E, _ app: AppState) -> Decision {
        Decision(PendingEvent(event, on: stream(app.appID)), expecting: [stream(app.appID): .exactly(app.version)])
    }

    /// Every product the campaign names is in the catalog, and those it sells on the web
    /// have a web price.
    static func checkCampaign(products named: [String], sold: [String], app: AppState) throws(Refusal) {
        for id in named { _ = try app.requireProduct(id) }
        if let id = sold.first(where: { app.products[$0]?.webPrice == nil }) {
            throw Refusal(.noWebPrice, "product \(id) of app \(app.appID) has no web price, and the campaign sells it on the web: set one with `product set --web-price`")
        }
    }

    /// A campaign id names one campaign at a time: ending it ends whichever holds it, and
    /// impressions are counted by it.
    static func checkCampaignID(_ id: String, heldBy other: (kind: String, id: String?)) throws(Refusal) {
        guard other.id != id else {
            throw Refusal(.inUse, "campaign id \(id) is held by the app's active \(other.kind) campaign: choose another id")
        }
    }
}
