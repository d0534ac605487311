import Foundation
import LedgerDomain
import LedgerJSON
import Postgres

/// Refund requests (`appstore_consumption`) and the facts their answers are built from
/// (docs/appstore.md, "Refund requests").
extension OrganizationsReadModel {
    /// A refund request and, once answered, its answer.
    public struct ConsumptionRequest: Sendable, Equatable {
        public var request: AppStoreConsumptionRequested
        /// The request's position in the log.
        public var position: Int64
        public var outcome: ConsumptionOutcome?
        public var reason: String?
        public var detail: String?
        /// The fields sent, when something was.
        public var information: ConsumptionInformation?
        public var answeredAt: Timestamp?
    }

    private static let consumptionColumns = """
        notification_uuid, original_transaction_id, org_id, transaction_id, product_id, bundle_id, environment, signed_us,
        position, outcome, reason, detail, information, answered_us
        """

    private static func consumptionRequest(_ r: PostgresRow) throws -> ConsumptionRequest {
        let request = AppStoreConsumptionRequested(
            orgID: r.string(2), originalTransactionID: try r.requireString(1), transactionID: try r.requireString(3),
            productID: try r.requireString(4), bundleID: r.string(5), notificationUUID: try r.requireString(0),
            signedDate: Timestamp(microseconds: try r.requireInt64(7)) ?? .minimum, environment: try r.requireString(6))
        let information = try r.string(12).map {
            try JSONValueDecoder().decode(ConsumptionInformation.self, from: try JSONValue.parse(Array($0.utf8)))
        }
        return ConsumptionRequest(request: request, position: try r.requireInt64(8), outcome: r.string(9).flatMap(ConsumptionOutcome.init(rawValue:)),
                                  reason: r.string(10), detail: r.string(11), information: information,
                                  answeredAt: r.int64(13).flatMap { Timestamp(microseconds: $0) })
    }

    /// The requests not answered yet, the most urgent first, at most `limit`: read through
    /// the partial index of unanswered rows alone, however many were answered before.
    public func unansweredConsumptionRequests(limit: Int = 100) throws -> [ConsumptionRequest] {
        try connections.read { conn in
            try conn.query("""
                SELECT \(Self.consumptionColumns) FROM proj_organizations.appstore_consumption
                WHERE outcome IS NULL ORDER BY respond_by_us, position LIMIT $1
                """, [Int64(limit)]).rows.map(Self.consumptionRequest)
        }
    }

    /// An organization's refund requests and their answers, in the order Apple asked.
    public func consumptionRequests(org: String) throws -> [ConsumptionRequest] {
        try connections.read { conn in
            try conn.query("""
                SELECT \(Self.consumptionColumns) FROM proj_organizations.appstore_consumption
                WHERE org_id = $1 ORDER BY position
                """, [org]).rows.map(Self.consumptionRequest)
        }
    }

    /// What the ledger knew of `org` before the event at `position` (a refund request about
    /// the subscription `original`): its token, creation, first App Store purchase, refunded
    /// subscriptions, and whether that subscription began with a free trial. Nil when the
    /// projection has no such organization.
    public func consumptionCustomer(org: String, original: String, before position: Int64) throws -> ConsumptionCustomer? {
        try connections.read { conn in
            let rows = try conn.query("""
                SELECT o.account_token, o.created_us,
                    (SELECT min(c.purchase_us) FROM proj_organizations.appstore_subscriptions s
                     JOIN proj_organizations.appstore_changes c USING (original_transaction_id)
                     WHERE s.org_id = o.org_id AND c.kind = 'transaction' AND c.position < $2),
                    (SELECT count(DISTINCT s.original_transaction_id) FROM proj_organizations.appstore_subscriptions s
                     JOIN proj_organizations.appstore_changes c USING (original_transaction_id)
                     WHERE s.org_id = o.org_id AND c.position < $2
                       AND ((c.kind = 'end' AND c.reason = 'REFUND')
                            OR (c.kind = 'transaction' AND c.revoked_us IS NOT NULL
                                AND coalesce(c.ownership, 'PURCHASED') <> 'FAMILY_SHARED'))),
                    EXISTS (SELECT 1 FROM proj_organizations.appstore_changes c
                            WHERE c.original_transaction_id = $3 AND c.kind = 'transaction' AND c.position < $2
                              AND c.offer_type = 1 AND c.offer_discount_type = 'FREE_TRIAL')
                FROM proj_organizations.orgs o WHERE o.org_id = $1
                """, [org, position, original]).rows
            guard let r = rows.first else { return nil }
            return ConsumptionCustomer(orgID: org, accountToken: r.string(0).flatMap(UUID.init(uuidString:)),
                                       createdAt: r.int64(1).flatMap { Timestamp(microseconds: $0) },
                                       firstPurchase: r.int64(2).flatMap { Timestamp(microseconds: $0) },
                                       refundedSubscriptions: Int(r.int64(3) ?? 0), hadFreeTrial: r.bool(4) ?? false)
        }
    }
}
