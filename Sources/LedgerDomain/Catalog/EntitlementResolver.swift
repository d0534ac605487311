/// What a user holds now across StoreKit and the web. Pure: the app's catalog, the user's
/// purchases (StoreKit's synced transactions and operators' web corrections) and web
/// holdings (the payment processor's facts) and the time come in.
public struct EntitlementResolver: Sendable {
    public var catalog: AppCatalog

    public init(catalog: AppCatalog) { self.catalog = catalog }

    /// Each product held at `now`, once per source and purchase: a subscription by its
    /// latest transaction; consumables are used up, never held. Ordered by product, then
    /// source, then purchase.
    public func entitlements(purchases: [UserPurchase], web: WebHoldings, now: Timestamp) -> [Entitlement] {
        var out: [Entitlement] = []
        for (_, group) in Dictionary(grouping: purchases, by: { "\($0.source.rawValue):\($0.originalID)" }) {
            guard let latest = group.max(by: { ($0.purchasedAt, $0.expiresAt ?? .minimum) < ($1.purchasedAt, $1.expiresAt ?? .minimum) }),
                  latest.revokedAt.map({ $0 > now }) ?? true, catalog.product(latest.productID)?.type != .consumable else { continue }
            if let expires = latest.expiresAt, expires <= now { continue }
            let type = catalog.product(latest.productID)?.type
            let inTrial = latest.trial && latest.expiresAt != nil
            out.append(Entitlement(
                productID: latest.productID, source: latest.source, purchaseID: latest.originalID,
                status: latest.expiresAt == nil ? "purchased" : inTrial ? "trialing" : "active", expiresAt: latest.expiresAt,
                willRenew: type == .autoRenewableSubscription && latest.source == .storekit ? nil : false,
                trial: inTrial ? Entitlement.Trial(mode: trialMode(latest.productID), endsAt: latest.expiresAt, upfrontPaid: nil, hold: nil) : nil,
                recordedBy: latest.source == .storekit ? .appStore : .operator))
        }
        for s in web.subscriptions where s.isHeld(at: now) {
            guard let product = s.productID else { continue }
            let trial = s.inTrial(at: now)
                ? Entitlement.Trial(mode: trialMode(product), endsAt: s.trialEnd, upfrontPaid: s.upfrontPaid, hold: s.hold) : nil
            out.append(Entitlement(productID: product, source: .web, purchaseID: s.subscriptionID, status: s.status.rawValue,
                                   expiresAt: s.accessEndsAt, willRenew: s.willRenew, trial: trial, recordedBy: .stripe))
        }
        for p in web.payments where p.isHeld(at: now) {
            guard let product = p.productID, catalog.product(product)?.type != .consumable else { continue }
            out.append(Entitlement(productID: product, source: .web, purchaseID: p.sessionID, status: "purchased", expiresAt: nil,
                                   willRenew: false, trial: nil, recordedBy: .stripe))
        }
        return out.sorted { ($0.productID, $0.source.rawValue, $0.purchaseID) < ($1.productID, $1.source.rawValue, $1.purchaseID) }
    }

    func trialMode(_ productID: String) -> TrialMode { catalog.product(productID)?.trial?.mode ?? .free }
}
