import Foundation
import HTTP
import LedgerDomain
import LedgerServices

/// O1–O13: what an organization can buy through the App Store, and the token its
/// purchases carry.
enum OfferEndpoint {
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

    /// O12: the organization's App Store subscription, with what Apple said of it
    /// (docs/appstore.md, "Lifecycle"). Members with nothing to say are `null`.
    struct SubscriptionView: Codable, Sendable, Equatable {
        struct Offer: Codable, Sendable, Equatable {
            var type: String?
            var code: Int
            var identifier: String?
            var discountType: String?
            enum CodingKeys: String, CodingKey { case type, code, identifier, discountType = "discount_type" }
        }
        struct Dated: Codable, Sendable, Equatable {
            var status: String
            var signedAt: String
            enum CodingKeys: String, CodingKey { case status, signedAt = "signed_at" }
        }
        var originalTransactionID: String
        var productID: String
        var plan: String
        var status: String
        var expiresAt: String?
        var environment: String
        var heldByReader: Bool
        var ownership: String?
        var offer: Offer?
        var priceIncrease: Dated?
        var renewalExtension: Dated?
        enum CodingKeys: String, CodingKey {
            case plan, status, environment, ownership, offer
            case originalTransactionID = "original_transaction_id", productID = "product_id", expiresAt = "expires_at"
            case heldByReader = "held_by_reader", priceIncrease = "price_increase", renewalExtension = "renewal_extension"
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(originalTransactionID, forKey: .originalTransactionID)
            try c.encode(productID, forKey: .productID)
            try c.encode(plan, forKey: .plan)
            try c.encode(status, forKey: .status)
            try c.encode(expiresAt, forKey: .expiresAt)
            try c.encode(environment, forKey: .environment)
            try c.encode(heldByReader, forKey: .heldByReader)
            try c.encode(ownership, forKey: .ownership)
            try c.encode(offer, forKey: .offer)
            try c.encode(priceIncrease, forKey: .priceIncrease)
            try c.encode(renewalExtension, forKey: .renewalExtension)
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
        let reader = try OrganizationAccess.reader(request, context, settings)
        let orgID = request.pathParameters["org_id"] ?? ""
        return try context.answer(query(orgID, for: reader, settings), as: .person(reader), atLeast: try ReadYourWrites.minimumPosition(request),
                                  since: request.receivedAt, notFound: { OrganizationAccess.notFound(orgID) }) { answer in
            var headers: HTTPHeaders = ["Cache-Control": "private, no-store"]
            headers.add(name: "Vary", value: "Cookie")
            let response = HTTPResponse.json(Response(answer.offer, org: answer.organization, bundleID: settings.bundleID), headers: headers)
            guard let grant = answer.offer.education.grant else { return response }
            // O8: eligible once, with an audit entry naming the domain, and in this same offer.
            let metadata = EventMetadata(actor: Actor(.person, reader.personID), requestID: request.requestID,
                                         reason: "verified e-mail on a K-12 school domain")
            return try context.perform(EducationGrantAct(grant: grant), metadata: metadata) { outcome, _ in
                switch outcome {
                case .appended, .alreadyRecorded: return response
                default: throw outcome.failure
                }
            }
        }
    }

    /// The organization's offer for `reader`, with the surfaces' catalog and school domains.
    static func query(_ orgID: String, for reader: AppStoreReader, _ settings: AppStoreSettings) -> OrganizationOfferQuery {
        OrganizationOfferQuery(orgID, for: reader, products: settings.catalog, schoolDomains: settings.schoolDomains)
    }
}

extension OfferEndpoint.Response {
    init(_ offer: AppStoreOffer, org: OrganizationSnapshot, bundleID: String) {
        self.init(
            organizationID: org.id, bundleID: bundleID, accountToken: offer.accountToken, canPurchase: offer.canPurchase,
            products: offer.products.map { OfferEndpoint.Product(plan: $0.plan.rawValue, productID: $0.productID, level: $0.plan.level) },
            educationEligible: offer.education.eligible, educationEligibilitySource: offer.education.source,
            delegatedToReseller: offer.delegatedToReseller, plan: OfferEndpoint.PlanView(offer.plan),
            subscription: offer.subscription.map(OfferEndpoint.SubscriptionView.init), position: org.position)
    }
}

extension OfferEndpoint.PlanView {
    init(_ view: AppStoreOffer.PlanView) {
        self.init(current: view.current.rawValue, level: view.current.level, source: view.source?.rawValue,
                  pending: view.pending.map { .init(plan: $0.plan.rawValue, from: $0.from.iso8601) })
    }
}

extension OfferEndpoint.SubscriptionView {
    init(_ view: AppStoreOffer.SubscriptionView) {
        self.init(originalTransactionID: view.originalTransactionID, productID: view.productID, plan: view.plan.rawValue,
                  status: view.status.rawValue, expiresAt: view.expires?.iso8601, environment: view.environment,
                  heldByReader: view.heldByReader, ownership: view.ownership?.rawValue,
                  offer: view.offer.map { .init(type: $0.kind?.rawValue, code: $0.code, identifier: $0.identifier, discountType: $0.discountType) },
                  priceIncrease: view.priceIncrease.map { .init(status: $0.status.rawValue, signedAt: $0.signed.iso8601) },
                  renewalExtension: view.renewalExtension.map { .init(status: $0.outcome.rawValue, signedAt: $0.signed.iso8601) })
    }
}
