import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine
import Projections
import Testing
import TestSupport

/// The organizations projection on PostgreSQL folds the App Store lifecycle
/// (docs/appstore.md, "Lifecycle"): events as older logs hold them (no ownership, no offer;
/// one `appstore.subscription_ended` for every kind of end) fold to the precise status, and
/// the new facts come back through the read model.
@Suite("Organizations projection: the App Store lifecycle", .bounded)
struct OrganizationsLifecycleTests {
    static func transaction(_ original: String, signed: String, extra: [String: JSONValue] = [:]) -> JSONValue {
        var data: [String: JSONValue] = [
            "org_id": "acme", "original_transaction_id": .string(original), "transaction_id": .string(original + "-1"),
            "product_id": "ai.screenrig.plus.monthly", "plan": "plus", "purchase_date": .string(signed), "expires_date": "2027-11-01T00:00:00.000000Z",
            "signed_date": .string(signed), "environment": "Sandbox", "via": "SUBSCRIBED", "expired_when_recorded": false,
        ]
        for (k, v) in extra { data[k] = v }
        return .object(data)
    }

    static func ended(_ original: String, _ reason: String, signed: String) -> JSONValue {
        ["org_id": "acme", "original_transaction_id": .string(original), "reason": .string(reason), "signed_date": .string(signed),
         "notification_uuid": .string("n-" + original)]
    }

    @Test("old events fold to expired, refunded and revoked; ownership, offer, price increase and failed extension are read back")
    func lifecycleFolds() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let store = EventStore(conninfo: db.writerURL)
        defer { store.close() }
        _ = try store.append(AppendRequest(event("org-acme", OrganizationCreated.type, ["org_id": "acme", "name": "Acme"])))
        let at = "2026-11-02T00:00:00.000000Z", later = "2026-11-10T00:00:00.000000Z"
        for (original, reason) in [("o-exp", "EXPIRED"), ("o-grace", "GRACE_PERIOD_EXPIRED"), ("o-ref", "REFUND"), ("o-rev", "REVOKE")] {
            _ = try store.append(AppendRequest(event("appstore-sub-" + original, AppStoreTransactionRecorded.type, Self.transaction(original, signed: at))))
            _ = try store.append(AppendRequest(event("appstore-sub-" + original, AppStoreSubscriptionEnded.type, Self.ended(original, reason, signed: later))))
        }
        let shared = Self.transaction("o-fam", signed: at, extra: ["in_app_ownership_type": "FAMILY_SHARED", "offer_type": 2,
                                                                  "offer_identifier": "LOYAL", "offer_discount_type": "PAY_UP_FRONT"])
        _ = try store.append(AppendRequest(event("appstore-sub-o-fam", AppStoreTransactionRecorded.type, shared)))
        _ = try store.append(AppendRequest(event("appstore-sub-o-fam", AppStorePriceIncreaseReported.type,
                                                 ["org_id": "acme", "original_transaction_id": "o-fam", "status": "pending", "renewal_price": 12990,
                                                  "currency": "USD", "signed_date": .string(later), "notification_uuid": "n-p"])))
        _ = try store.append(AppendRequest(event("appstore-sub-o-fam", AppStoreRenewalExtensionFailed.type,
                                                 ["org_id": "acme", "original_transaction_id": "o-fam", "signed_date": .string(later),
                                                  "notification_uuid": "n-f"])))
        let projector = ProjectorThread(url: db.projectorURL, projections: [OrganizationsProjection()], batchSize: 3, pollInterval: 0.2)
        defer { projector.stop() }
        #expect(try waitForProjections([OrganizationsProjection()], url: db.superuserURL))

        let pool = PostgresPool(conninfo: db.writerURL, maximumConnections: 1)
        let org = try #require(try OrganizationsReadModel(connections: pool).snapshot("acme"))
        let now = Timestamp(iso8601: "2026-11-15T00:00:00Z")!
        let status = Dictionary(uniqueKeysWithValues: org.plans.subscriptions.map { ($0.originalTransactionID, $0.status(at: now)) })
        #expect(status == ["o-exp": .expired, "o-grace": .expired, "o-ref": .refunded, "o-rev": .revoked, "o-fam": .active])
        #expect(org.plans.subscriptions.filter { $0.originalTransactionID != "o-fam" }.allSatisfy { $0.latest?.ownership == nil && $0.latest?.offer == nil })
        let fam = try #require(org.plans.subscriptions.first { $0.originalTransactionID == "o-fam" })
        #expect(fam.latest?.ownership == .familyShared)
        #expect(fam.latest?.offer == AppStoreOfferAttribution(code: 2, identifier: "LOYAL", discountType: "PAY_UP_FRONT"))
        #expect(fam.priceIncrease?.status == .pending && fam.renewalExtension?.outcome == .failed)
        // N4 as before: every end takes the plan at the next month start.
        #expect(org.plans.current(at: now).plan == .plus)
        let december = Timestamp(iso8601: "2026-12-01T00:00:00Z")!
        #expect(org.plans.held(at: december).count == 1, "only the live subscription still holds its plan")
    }
}
