import EventStore
import LedgerCLI
import LedgerDomain
import LedgerJSON

extension BenchReadLog {
    /// The k-th event of the other projections' mix, in units of ten per organization:
    /// its creation, an administrator, a billing plan, an App Store subscription recorded
    /// and renewed, a notification acknowledged, two purchases in the app's history, an
    /// impressions count and the app's status (catalog configuration).
    func extra(_ k: Int, metadata: EventMetadata) throws -> EventToAppend {
        let encoder = JSONValueEncoder()
        let unit = k / 10
        let org = "bx-\(events)-org-\(unit)"
        let app = "bx-\(events)-app-\(unit % 20)"
        let transaction = "bx-\(events)-ot-\(unit)"
        let day: Int64 = 86_400_000_000
        let start = Timestamp(microseconds: Self.epoch.microseconds + Int64(unit % 30) * day)!
        func event<T: DomainEvent>(_ stream: String, _ value: T) throws -> EventToAppend {
            EventToAppend(stream: stream, type: T.type, data: try encoder.encode(value), metadata: metadata)
        }
        func recorded(_ n: Int64) -> AppStoreTransactionRecorded {
            let purchase = Timestamp(microseconds: start.microseconds + n * 30 * day)!
            return AppStoreTransactionRecorded(
                orgID: org, originalTransactionID: transaction, transactionID: "\(transaction)-\(n)", productID: "bench.plus.monthly",
                plan: .plus, purchaseDate: purchase, expiresDate: Timestamp(microseconds: purchase.microseconds + 30 * day),
                revocationDate: nil, signedDate: purchase, environment: "Sandbox", personID: "bx-person-\(unit)", via: "bench",
                expiredWhenRecorded: false)
        }
        func purchase(_ n: Int) -> PurchaseRecorded {
            PurchaseRecorded(appID: app, userID: "bx-user-\(unit)", source: .storekit, purchaseID: "\(transaction)-p\(n)",
                             originalID: transaction, productID: "bench.coins.\(n)", purchasedAt: start, expiresAt: nil,
                             trial: false, environment: "Sandbox")
        }
        switch k % 10 {
        case 0: return try event("org-" + org, OrganizationCreated(orgID: org, name: org))
        case 1: return try event("org-" + org, AdminDesignated(orgID: org, personID: "bx-person-\(unit)"))
        case 2: return try event("org-" + org, BillingPlanChanged(orgID: org, plan: .plus))
        case 3: return try event("appstore-" + transaction, recorded(0))
        case 4: return try event("appstore-" + transaction, recorded(1))
        case 5: return try event("appstore-notifications",
                                 AppStoreNotificationAcknowledged(notificationUUID: "\(transaction)-n", notificationType: "DID_RENEW",
                                                                  subtype: nil, reason: "bench", environment: "Sandbox"))
        case 6: return try event("app-\(app)-purchases", purchase(1))
        case 7: return try event("app-\(app)-purchases", purchase(2))
        case 8: return try event("app-\(app)-impressions", OfferImpressionsCounted(
            appID: app, counts: [.init(campaignID: "bench-upgrade", variantID: Int64(unit % 3), count: 1 + Int64(unit % 7))]))
        default: return try event("app-" + app, AppStatusChanged(appID: app, enabled: unit % 2 == 0))
        }
    }
}
