/// The rules of `GET /v1/iap/products`: trial eligibility, and which campaign offer a
/// user sees. Pure: the catalog, the user's purchases and the time come in.
public struct CatalogResolver: Sendable {
    /// `demo=…`, honoured only on test keys.
    public enum Demo: String, Sendable { case migration, upgrade }

    public var catalog: AppCatalog
    public init(catalog: AppCatalog) { self.catalog = catalog }

    /// The answer for one request. `userID` nil: anonymous. `demo` must already be nil
    /// for live keys and unknown values.
    public func resolve(userID: String?, purchases: [UserPurchase], demo: Demo?, now: Timestamp) -> CatalogView {
        let products = catalog.products.map { product(for: $0, userID: userID, purchases: purchases) }
        var view = CatalogView(products: products, checkout: catalog.checkout, migration: nil, offer: nil, impression: nil)
        if let campaign = catalog.migration {
            var shown = MigrationView(campaign: campaign, shouldShow: false, variantID: nil)
            if let userID {
                shown.variantID = RolloutBucket.variant(app: catalog.appID, campaign: campaign.campaignID, user: userID,
                                                        among: campaign.targeting.variants)?.id
            }
            shown.shouldShow = demo == .migration || (userID.map { migrationEligible(campaign, user: $0, purchases, now) } ?? false)
            view.migration = shown
            if shown.shouldShow && demo != .upgrade { view.offer = .migration(shown) }
        }
        if view.offer == nil, let campaign = catalog.upgrade {
            // An upgrade preview replaces whatever offer the user would really get.
            if demo == .upgrade, let path = campaign.upgradePaths.first {
                view.offer = .upgrade(UpgradeView(campaign: campaign, path: path, savingsPercent: 0,
                                                  variantID: userID.flatMap { variant(campaign.campaignID, campaign.targeting, $0) }))
            } else if demo == nil, let userID, let path = upgradePath(campaign, user: userID, purchases, now) {
                view.offer = .upgrade(UpgradeView(campaign: campaign, path: path, savingsPercent: savingsPercent(path),
                                                  variantID: variant(campaign.campaignID, campaign.targeting, userID)))
            }
        }
        if demo == nil, let offer = view.offer { view.impression = (offer.campaignID, offer.variantID) }
        return view
    }

    private func variant(_ campaign: String, _ targeting: CampaignTargeting, _ user: String) -> Int64? {
        RolloutBucket.variant(app: catalog.appID, campaign: campaign, user: user, among: targeting.variants)?.id
    }

    // MARK: - Trials

    func product(for product: CatalogProduct, userID: String?, purchases: [UserPurchase]) -> ProductView {
        var view = ProductView(product: product, storeKitPrice: catalog.storeKitPrices[product.id], isTrialEligible: nil, trial: nil)
        guard userID != nil else { return view }
        let eligible = isTrialEligible(product, purchases)
        view.isTrialEligible = eligible
        if eligible, let duration = product.freeTrialDuration.flatMap(ISODuration.init) {
            let trial = product.trial ?? CatalogProduct.Trial(mode: .free)
            view.trial = TrialView(mode: trial.mode, duration: duration.token, upfrontAmountCents: trial.upfrontAmountCents,
                                   holdAmountCents: trial.holdAmountCents)
        }
        return view
    }

    /// Apple's rule: one trial per subscription group. A user who ever had a trial or a
    /// subscription in the product's group is not eligible; a product without a trial
    /// offers none to be eligible for.
    public func isTrialEligible(_ product: CatalogProduct, _ purchases: [UserPurchase]) -> Bool {
        guard product.type == .autoRenewableSubscription, product.freeTrialDuration != nil,
              let group = product.subscriptionGroupID else { return false }
        return !purchases.contains { catalog.product($0.productID)?.subscriptionGroupID == group }
    }

    // MARK: - Campaigns

    /// The user's active subscriptions: per subscription (original id), its latest purchase
    /// and how many whole days since its first.
    func activeSubscriptions(_ purchases: [UserPurchase], now: Timestamp) -> [(latest: UserPurchase, days: Int)] {
        Dictionary(grouping: purchases) { "\($0.source.rawValue):\($0.originalID)" }.values.compactMap { group in
            let ordered = group.sorted { $0.purchasedAt < $1.purchasedAt }
            guard let latest = ordered.last, let first = ordered.first, latest.revokedAt == nil,
                  let expires = latest.expiresAt, expires > now else { return nil }
            return (latest, Int((now.microseconds - first.purchasedAt.microseconds) / 86_400_000_000))
        }.sorted { ($0.latest.purchasedAt, $0.latest.originalID) < ($1.latest.purchasedAt, $1.latest.originalID) }
    }

    func targeted(_ targeting: CampaignTargeting, days: Int) -> Bool {
        days >= targeting.minSubscriptionDays && targeting.maxSubscriptionDays.map { days <= $0 } ?? true
    }

    func migrationEligible(_ campaign: MigrationCampaignConfig, user: String, _ purchases: [UserPurchase], _ now: Timestamp) -> Bool {
        let active = activeSubscriptions(purchases, now: now)
        // W12: a web subscriber of the target, or of its subscription group, has switched already.
        let group = catalog.product(campaign.productID)?.subscriptionGroupID
        if active.contains(where: {
            $0.latest.source == .web && ($0.latest.productID == campaign.productID
                                         || group != nil && catalog.product($0.latest.productID)?.subscriptionGroupID == group)
        }) { return false }
        guard active.contains(where: {
            $0.latest.source == .storekit && campaign.eligibleProductIDs.contains($0.latest.productID) && targeted(campaign.targeting, days: $0.days)
        }) else { return false }
        return RolloutBucket.isInRollout(app: catalog.appID, campaign: campaign.campaignID, user: user,
                                         percent: campaign.targeting.rolloutPercent)
    }

    func upgradePath(_ campaign: UpgradeOfferConfig, user: String, _ purchases: [UserPurchase], _ now: Timestamp) -> UpgradeOfferConfig.Path? {
        let active = activeSubscriptions(purchases, now: now)
        let path = campaign.upgradePaths.first { path in
            let source: PurchaseSource = path.upgradeType == .storekitToWeb ? .storekit : .web
            return !active.contains { $0.latest.productID == path.toProductID }
                && active.contains { $0.latest.source == source && $0.latest.productID == path.fromProductID && targeted(campaign.targeting, days: $0.days) }
        }
        guard let path, RolloutBucket.isInRollout(app: catalog.appID, campaign: campaign.campaignID, user: user,
                                                  percent: campaign.targeting.rolloutPercent) else { return nil }
        return path
    }

    /// What a year of the target costs less than a year of the current product, in whole
    /// percent rounded down; 0 when a price or a period is missing, the currencies differ,
    /// or the target is not cheaper.
    public func savingsPercent(_ path: UpgradeOfferConfig.Path) -> Int {
        guard let from = catalog.product(path.fromProductID), let to = catalog.product(path.toProductID),
              let fromPrice = path.upgradeType == .storekitToWeb ? catalog.storeKitPrices[from.id] : from.webPrice,
              let toPrice = to.webPrice, fromPrice.currencyCode == toPrice.currencyCode,
              let fromPerYear = from.subscriptionPeriod.flatMap(ISODuration.init)?.perYear,
              let toPerYear = to.subscriptionPeriod.flatMap(ISODuration.init)?.perYear else { return 0 }
        let fromAnnual = Double(fromPrice.amountMicros) * fromPerYear
        let toAnnual = Double(toPrice.amountMicros) * toPerYear
        guard fromAnnual > 0, toAnnual < fromAnnual else { return 0 }
        // The epsilon keeps an exact 20 % from printing as 19 after floating-point division.
        return max(0, min(100, Int(((fromAnnual - toAnnual) / fromAnnual * 100 + 1e-9).rounded(.down))))
    }
}
