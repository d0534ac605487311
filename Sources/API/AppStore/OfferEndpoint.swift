import Foundation
import HTTP
import LedgerDomain

/// O1–O13: what an organization can buy through the App Store, and the token its
/// purchases carry.
enum OfferEndpoint {
    static let zeroToken = "00000000-0000-0000-0000-000000000000"

    struct Product: Codable, Sendable, Equatable {
        var plan: String
        var productID: String
        var level: Int
        enum CodingKeys: String, CodingKey { case plan, level, productID = "product_id" }
    }

    struct PlanView: Codable, Sendable, Equatable {
        struct Pending: Codable, Sendable, Equatable { var plan: String; var from: String }
        var current: String
        var level: Int
        var source: String?
        var pending: Pending?
    }

    struct SubscriptionView: Codable, Sendable, Equatable {
        var originalTransactionID: String
        var productID: String
        var plan: String
        var status: String
        var expiresAt: String?
        var environment: String
        var heldByReader: Bool
        enum CodingKeys: String, CodingKey {
            case plan, status, environment
            case originalTransactionID = "original_transaction_id", productID = "product_id", expiresAt = "expires_at"
            case heldByReader = "held_by_reader"
        }
    }

    struct Response: Codable, Sendable {
        var organizationID: String
        var bundleID: String
        var accountToken: String
        var canPurchase: Bool
        var products: [Product]
        var educationEligible: Bool
        var educationEligibilitySource: String?
        var delegatedToReseller: Bool
        var plan: PlanView
        var subscription: SubscriptionView?
        var position: Int64
        enum CodingKeys: String, CodingKey {
            case products, plan, subscription, position
            case organizationID = "organization_id", bundleID = "bundle_id", accountToken = "account_token"
            case canPurchase = "can_purchase", educationEligible = "education_eligible"
            case educationEligibilitySource = "education_eligibility_source", delegatedToReseller = "delegated_to_reseller"
        }

        /// `subscription` and `education_eligibility_source` are `null`, not absent, when
        /// there is none (O12).
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(organizationID, forKey: .organizationID)
            try c.encode(bundleID, forKey: .bundleID)
            try c.encode(accountToken, forKey: .accountToken)
            try c.encode(canPurchase, forKey: .canPurchase)
            try c.encode(products, forKey: .products)
            try c.encode(educationEligible, forKey: .educationEligible)
            try c.encode(educationEligibilitySource, forKey: .educationEligibilitySource)
            try c.encode(delegatedToReseller, forKey: .delegatedToReseller)
            try c.encode(plan, forKey: .plan)
            try c.encode(subscription, forKey: .subscription)
            try c.encode(position, forKey: .position)
        }
    }

    static func handle(_ request: HTTPRequest, context: ServiceContext, settings: AppStoreSettings) throws -> HTTPResponse {
        let session = try OrganizationAccess.session(request, context, settings)
        let orgID = request.pathParameters["org_id"] ?? ""
        let notFound = Problem(status: 404, code: "not_found", detail: "no organization \(orgID) for this session")
        guard let state = try OrganizationState.read(orgID, pool: context.pool),
              let role = OrganizationAccess.role(session, in: state) else { throw notFound }
        let education = OrganizationAccess.education(state, session, role: role, domains: settings.schoolDomains)
        if let grant = education.grant {
            // O8: eligible once, with an audit entry naming the domain, and in this same offer.
            try OrganizationAccess.record(grant, session: session, request: request, context: context)
        }
        let response = offer(state, session: session, role: role, educationEligible: education.eligible,
                             educationSource: education.source, settings: settings, now: context.now())
        var headers: HTTPHeaders = ["Cache-Control": "private, no-store"]
        headers.add(name: "Vary", value: "Cookie")
        return .json(response, headers: headers)
    }

    static func offer(_ state: OrganizationState, session: SessionToken, role: OrganizationAccess.Role, educationEligible: Bool,
                      educationSource: String?, settings: AppStoreSettings, now: Timestamp) -> Response {
        let current = state.plans.current(at: now)
        var planView = PlanView(current: current.plan.rawValue, level: current.plan.level, source: current.source?.rawValue, pending: nil)
        if let source = current.source {
            let timeline: PlanTimeline? = switch source {
            case .staff: state.plans.staff
            case .billing: state.plans.billing
            case .appStore: nil
            }
            if let pending = timeline?.pending(at: now) {
                planView.pending = .init(plan: pending.plan?.rawValue ?? Plan.free.rawValue, from: pending.from.iso8601)
            }
        }
        // O12: the organization's subscription, the most recently active one if several.
        let subscription = state.plans.subscriptions.compactMap { s -> (OrganizationPlans.Subscription, OrganizationPlans.Subscription.Latest)? in
            s.latest.map { (s, $0) }
        }.max { a, b in (a.1.ended ? 0 : 1, a.1.expires ?? .minimum) < (b.1.ended ? 0 : 1, b.1.expires ?? .minimum) }
        let holdsSubscription = state.plans.subscriptions.contains { $0.holder == session.personID && $0.latest?.ended == false }

        var products: [Product] = []
        if role == .administrator && state.resellerID == nil {   // O3: a reseller pays for a delegated organization
            let held = state.plans.held(at: now).map(\.0.level).max() ?? 0
            for plan in Plan.purchasable {
                guard let productID = settings.products[plan] else { continue }
                if plan == .education && !educationEligible { continue }   // O6
                // O10: not a level held already, unless the reader's own subscription holds
                // it: they may change plan within the subscription group.
                if !holdsSubscription && plan.level <= held { continue }
                products.append(Product(plan: plan.rawValue, productID: productID, level: plan.level))
            }
        }
        let canPurchase = !products.isEmpty   // O11
        return Response(
            organizationID: state.id, bundleID: settings.bundleID,
            accountToken: canPurchase ? (state.accountToken?.uuidString.lowercased() ?? zeroToken) : zeroToken,   // O4, O5
            canPurchase: canPurchase, products: products, educationEligible: educationEligible,
            educationEligibilitySource: educationSource, delegatedToReseller: state.resellerID != nil, plan: planView,
            subscription: subscription.map { s, latest in
                SubscriptionView(originalTransactionID: s.originalTransactionID, productID: latest.productID, plan: latest.plan.rawValue,
                                 status: latest.ended ? "ended" : "active", expiresAt: latest.expires?.iso8601,
                                 environment: state.environments[s.originalTransactionID] ?? "Production",
                                 heldByReader: s.holder == session.personID)
            },
            position: state.position)
    }
}
