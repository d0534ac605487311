/// O1–O13: what an organization can buy through the App Store now, and the account token
/// its purchases carry, as the reader may see them.
public struct AppStoreOffer: Sendable, Hashable {
    public struct Product: Sendable, Hashable {
        public var plan: Plan
        public var productID: String
    }

    public struct PlanView: Sendable, Hashable {
        public var current: Plan
        public var source: PlanSource?
        /// A change decided but not in force yet (a downgrade at the next month).
        public var pending: (plan: Plan, from: Timestamp)?

        public static func == (a: PlanView, b: PlanView) -> Bool {
            a.current == b.current && a.source == b.source && a.pending?.plan == b.pending?.plan && a.pending?.from == b.pending?.from
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(current)
            hasher.combine(source)
            hasher.combine(pending?.plan)
            hasher.combine(pending?.from)
        }
    }

    public struct SubscriptionView: Sendable, Hashable {
        public var originalTransactionID: String
        public var productID: String
        public var plan: Plan
        public var status: SubscriptionStatus
        public var expires: Timestamp?
        public var environment: String
        public var heldByReader: Bool
        /// Who holds its plan: the buyer, or a family member through Family Sharing.
        public var ownership: AppStoreOwnership?
        /// The offer its latest transaction was bought with.
        public var offer: AppStoreOfferAttribution?
        public var priceIncrease: OrganizationPlans.Subscription.PriceIncrease?
        public var renewalExtension: OrganizationPlans.Subscription.RenewalExtension?
    }

    /// O5: what a reader who cannot buy sees instead of the token.
    public static let zeroToken = "00000000-0000-0000-0000-000000000000"

    public var products: [Product]
    /// O4, O5: the organization's token when the reader can buy, else the all-zero UUID.
    public var accountToken: String
    public var education: EducationEligibility
    public var delegatedToReseller: Bool
    public var plan: PlanView
    /// O12: the organization's subscription (the most recently active one), or nil.
    public var subscription: SubscriptionView?

    /// O11.
    public var canPurchase: Bool { !products.isEmpty }

    public init(_ org: OrganizationSnapshot, reader: AppStoreReader, role: AppStoreReader.Role, education: EducationEligibility,
                products catalog: AppStoreProducts, now: Timestamp) {
        let current = org.plans.current(at: now)
        let pending = org.plans.pendingChange(at: now)
        let plan = PlanView(current: current.plan, source: current.source, pending: pending.map { ($0.plan, $0.from) })
        // O12: the subscription most recently active: an active one first, then the latest to expire.
        let latest = org.plans.subscriptions.compactMap { s -> (OrganizationPlans.Subscription, OrganizationPlans.Subscription.Latest)? in
            s.latest.map { (s, $0) }
        }.max { a, b in
            (a.0.status(at: now) == .active ? 1 : 0, a.1.expires ?? .minimum) < (b.0.status(at: now) == .active ? 1 : 0, b.1.expires ?? .minimum)
        }
        // Whatever its status: a lapsed or ended subscription of the reader still holds its plan
        // to the month's end, and they may buy in its group again (resubscribe) meanwhile.
        let own = Set(org.plans.subscriptions.filter { $0.holder == reader.personID }.map(\.originalTransactionID))

        var products: [Product] = []
        if role == .administrator && org.resellerID == nil {   // O3: a reseller pays for a delegated organization
            // O10: a level held through another source is not offered; the reader's own
            // subscription does not block them, who may change plan within it.
            let held = org.plans.held(at: now, excluding: own).map(\.0.level).max() ?? 0
            for candidate in Plan.purchasable {
                guard let productID = catalog.byPlan[candidate] else { continue }
                if candidate == .education && !education.eligible { continue }   // O6
                if candidate.level <= held { continue }
                products.append(Product(plan: candidate, productID: productID))
            }
        }
        self.products = products
        self.accountToken = !products.isEmpty ? (org.accountToken?.uuidString.lowercased() ?? Self.zeroToken) : Self.zeroToken
        self.education = education
        self.delegatedToReseller = org.resellerID != nil
        self.plan = plan
        self.subscription = latest.map { s, last in
            SubscriptionView(originalTransactionID: s.originalTransactionID, productID: last.productID, plan: last.plan,
                             status: s.status(at: now), expires: last.expires,
                             environment: org.environments[s.originalTransactionID] ?? "Production",
                             heldByReader: s.holder == reader.personID, ownership: last.ownership, offer: last.offer,
                             priceIncrease: s.priceIncrease, renewalExtension: s.renewalExtension)
        }
    }
}
