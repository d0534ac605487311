import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices

extension DemoStory {
    /// The organization whose App Store subscription has a history worth reading.
    static let storyOrg = (id: "lakeside-academy", name: "Lakeside Academy")
    /// Its subscription's original transaction id.
    static let storyOriginalTransaction = "2000000000310001"

    /// An organization that bought Plus in the App Store, renewed it, upgraded to Premium,
    /// renewed again and was refunded that renewal last month, and was then given Plus by
    /// staff: Apple's notifications signed by the development authority and
    /// posted to the API's sandbox endpoint, as Apple posts them, then an operator's act.
    func playAppStoreSubscription() throws {
        let org = Self.storyOrg
        try perform(OrgCreateAct(id: org.id, name: org.name, accountToken: Self.uuid("lakeside account token")),
                    key: "org-lakeside", reason: "the demo's App Store customer")
        try waitForProjections()
        let original = Self.storyOriginalTransaction
        guard try store.log.streamHead(AppStoreTransactionFacts.stream(originalTransactionID: original)) == nil else { return }
        guard let plus = planProducts[.plus], let premium = planProducts[.premium] else {
            throw Failure(description: "LEDGER_APPSTORE_PRODUCTS names no plus or premium product")
        }
        let token = Self.uuid("lakeside account token")
        struct Step {
            var type: String, subtype: String?, transaction: String, product: String, reason: String
            var purchased: Double, expires: Double, signed: Double, revoked: Double?
        }
        // Days before this month's start, so that the refund's end of the plan (which, as
        // every downgrade, applies at the next start of a month: T4) has applied by now.
        let steps = [
            Step(type: "SUBSCRIBED", subtype: "INITIAL_BUY", transaction: original, product: plus, reason: "PURCHASE",
                 purchased: 95, expires: 65, signed: 95, revoked: nil),
            Step(type: "DID_RENEW", subtype: nil, transaction: "2000000000310002", product: plus, reason: "RENEWAL",
                 purchased: 65, expires: 35, signed: 65, revoked: nil),
            Step(type: "DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", transaction: "2000000000310003", product: premium, reason: "PURCHASE",
                 purchased: 50, expires: 20, signed: 50, revoked: nil),
            Step(type: "DID_RENEW", subtype: nil, transaction: "2000000000310004", product: premium, reason: "RENEWAL",
                 purchased: 20, expires: -10, signed: 20, revoked: nil),
            Step(type: "REFUND", subtype: nil, transaction: "2000000000310004", product: premium, reason: "RENEWAL",
                 purchased: 20, expires: -10, signed: 8, revoked: 8),
        ]
        let start = months.this.start.microseconds
        func daysAgo(_ days: Double) -> Timestamp { Timestamp(microseconds: start - Int64(days * 86_400_000_000))! }
        for (i, step) in steps.enumerated() {
            let transaction = appStore.transaction(
                productID: step.product, appAccountToken: token, signedDate: daysAgo(step.signed), transactionID: step.transaction,
                originalTransactionID: original, purchaseDate: daysAgo(step.purchased), expiresDate: daysAgo(step.expires),
                revocationDate: step.revoked.map(daysAgo), transactionReason: step.reason)
            let renewal = appStore.renewalInfo(originalTransactionID: original, productID: step.product,
                                               autoRenewStatus: step.type == "REFUND" ? 0 : 1, signedDate: daysAgo(step.signed),
                                               renewalDate: daysAgo(step.expires))
            let notification = appStore.notification(type: step.type, subtype: step.subtype, transaction: transaction, renewal: renewal,
                                                     signedDate: daysAgo(step.signed), notificationUUID: Self.uuid("lakeside \(i)"))
            try call("POST", "/v1/appstore/notifications/sandbox", body: ["signedPayload": .string(notification)])
        }
        let reason = "courtesy Plus while the district's purchase order clears (ticket DEMO-42)"
        try perform(OrgEventAct(org: org.id) { try OrganizationDecider.setPlan(org: org.id, source: .staff, plan: .plus) },
                    key: "org-lakeside-staff-plus", reason: reason)
    }

    /// Offers served to the catalog's subscriber and a few web customers, through the
    /// products endpoint an SDK calls, so that the campaign's variants count impressions;
    /// once (a restart would count them again).
    func serveOffers() throws {
        guard try store.log.streamHead(CatalogDecider.stream(DemoData.catalogApp) + "-impressions") == nil else { return }
        for user in ["demo-subscriber", "demo-subscriber", "demo-subscriber", "web-ana", "web-bo"] {
            try call("GET", "/v1/iap/products?user_id=\(user)", headers: [("X-ZeroSettle-Key", catalogKey)])
        }
    }
}
