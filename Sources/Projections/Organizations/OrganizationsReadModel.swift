import Foundation
import LedgerDomain
import Postgres

/// Every read of the organizations projection's tables (`proj_organizations`).
public struct OrganizationsReadModel: Sendable {
    public let connections: PostgresPool

    public init(connections: PostgresPool) { self.connections = connections }

    /// The organization whose App Store account token this is (N: notifications name
    /// their organization through it).
    public func organization(withAccountToken token: UUID) throws -> String? {
        try connections.read { conn in
            try conn.query("SELECT org_id FROM proj_organizations.orgs WHERE account_token = $1", [token.uuidString.lowercased()])
                .rows.first?.string(0)
        }
    }

    /// The App Store subscriptions the projection holds, of one organization or all: what
    /// reconciliation asks Apple about, each with its organization and environment.
    public func appStoreSubscriptions(orgID: String? = nil) throws -> [(orgID: String, originalTransactionID: String, environment: String)] {
        try connections.read { conn in
            try conn.query("""
                SELECT org_id, original_transaction_id, environment FROM proj_organizations.appstore_subscriptions
                WHERE $1::text IS NULL OR org_id = $1 ORDER BY org_id, original_transaction_id
                """, [orgID]).rows.map { (try $0.requireString(0), try $0.requireString(1), try $0.requireString(2)) }
        }
    }

    /// An organization as the App Store rules judge it, read in one snapshot; nil when
    /// the projection has no such organization. `through` keeps only the plan changes of
    /// events up to that position: the organization as it was right after that event
    /// (webhook messages carry it).
    public func snapshot(_ id: String, through: Int64? = nil) throws -> OrganizationSnapshot? {
        try connections.read { conn in
            try conn.transaction(isolation: "REPEATABLE READ READ ONLY") { tx in
                let org = try tx.query("""
                    SELECT account_token, reseller_id, staff_education, auto_education_domain,
                           (SELECT position FROM proj_organizations._checkpoint)
                    FROM proj_organizations.orgs WHERE org_id = $1
                    """, [id])
                guard org.rowCount == 1 else { return nil }
                let row = org[0]
                let admins = Set(try tx.query("SELECT person_id FROM proj_organizations.org_admins WHERE org_id = $1", [id])
                    .rows.map { try $0.requireString(0) })
                var staff: [PlanTimeline.Change] = []
                var billing: [PlanTimeline.Change] = []
                for r in try tx.query("""
                    SELECT source, at_us, position, plan FROM proj_organizations.org_plan_changes
                    WHERE org_id = $1 AND ($2::bigint IS NULL OR position <= $2)
                    """, [id, through]).rows {
                    let change = PlanTimeline.Change(at: Timestamp(microseconds: try r.requireInt64(1)) ?? .minimum,
                                                     order: try r.requireInt64(2), plan: r.string(3).flatMap(Plan.init(rawValue:)))
                    if try r.requireString(0) == PlanSource.staff.rawValue { staff.append(change) } else { billing.append(change) }
                }
                var holders: [String: String?] = [:]
                var facts: [String: [SubscriptionFact]] = [:]
                var environments: [String: String] = [:]
                for r in try tx.query("""
                    SELECT s.original_transaction_id, s.holder_person_id, s.environment, c.kind, c.transaction_id, c.product_id,
                           c.plan, c.purchase_us, c.expires_us, c.signed_us, c.counts_for_plan, c.revoked_us, c.position,
                           c.reason, c.ownership, c.offer_type, c.offer_identifier, c.offer_discount_type
                    FROM proj_organizations.appstore_subscriptions s
                    JOIN proj_organizations.appstore_changes c USING (original_transaction_id)
                    WHERE s.org_id = $1 AND ($2::bigint IS NULL OR c.position <= $2)
                    """, [id, through]).rows {
                    let original = try r.requireString(0)
                    holders[original] = r.string(1)
                    environments[original] = try r.requireString(2)
                    func instant(_ column: Int) -> Timestamp? { r.int64(column).flatMap { Timestamp(microseconds: $0) } }
                    let signed = instant(9) ?? .minimum
                    let position = try r.requireInt64(12)
                    let kind = try r.requireString(3)
                    let reason = r.string(13)
                    func add(_ kind: SubscriptionFact.Kind) {
                        facts[original, default: []].append(SubscriptionFact(kind, signed: signed, position: position))
                    }
                    switch kind {
                    case "end": add(.end(SubscriptionFact.Ending(reason: reason ?? "")))
                    case "renewal_failed": add(.renewalFailed(graceUntil: instant(8)))
                    case "price_increase": if let status = reason.flatMap(PriceIncreaseStatus.init(rawValue:)) { add(.priceIncrease(status)) }
                    case "renewal_extension_failed": add(.renewalExtensionFailed)
                    default:
                        guard let plan = r.string(6).flatMap(Plan.init(rawValue:)) else { break }
                        let revoked = instant(11)
                        let offer = r.int64(15).map {
                            AppStoreOfferAttribution(code: Int(clamping: $0), identifier: r.string(16), discountType: r.string(17))
                        }
                        let t = SubscriptionFact.Transaction(
                            transactionID: try r.requireString(4), productID: try r.requireString(5), plan: plan,
                            purchase: instant(7) ?? .minimum, expires: instant(8), revoked: revoked,
                            expiredWhenRecorded: r.bool(10) == false && revoked == nil,
                            ownership: r.string(14).flatMap(AppStoreOwnership.init(apple:)), offer: offer, via: reason)
                        add(.transaction(t))
                    }
                }
                let subscriptions = holders.keys.sorted().map {
                    OrganizationPlans.Subscription(originalTransactionID: $0, holder: holders[$0] ?? nil, facts: facts[$0] ?? [])
                }
                return OrganizationSnapshot(
                    id: id, accountToken: row.string(0).flatMap(UUID.init(uuidString:)), resellerID: row.string(1),
                    staffEducation: row.bool(2), autoEducationDomain: row.string(3), admins: admins,
                    plans: OrganizationPlans(staff: staff, billing: billing, subscriptions: subscriptions),
                    position: row.int64(4) ?? 0, environments: environments)
            }
        }
    }
}
