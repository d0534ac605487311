import AppStore
import AppStoreServerAPI
import Foundation
import LedgerDomain
import Testing
import TestSupport

@Suite("Transaction history walks revisions, with Apple's filters and order", .bounded)
struct TransactionHistoryTests {
    @Test("seven transactions at three a page: three requests, each revision sent back, all verified")
    func walksRevisions() throws {
        let fixture = try StandInFixture(pageSize: 3)
        let original = "1000000000000001"
        var added: [AppStoreTransaction] = []
        for i in 0..<7 {
            let id: String = i == 0 ? original : String(1_000_000_000_000_001 + i)
            let ago: Int64 = Int64(7 - i) * 86_400_000
            added.append(fixture.addTransaction(id: id, original: original, purchasedMillisecondsAgo: ago))
        }
        fixture.addTransaction(id: "1000000000009999", customer: "someone else")
        let client = fixture.client()
        let all = try client.transactionHistory(transactionID: String(1_000_000_000_000_004))
        #expect(all.map(\.value) == added)
        #expect(all.map(\.jws).allSatisfy { !$0.isEmpty })
        let paths = fixture.standIn.requests.map(\.path)
        #expect(paths == Array(repeating: "/inApps/v2/history/1000000000000004", count: 3))

        let first = try client.transactionHistoryPage(transactionID: original)
        #expect(first.transactions.count == 3 && first.hasMore && first.environment == "Sandbox" && first.bundleID == StandInFixture.bundleID)
        let revision = try #require(first.revision)
        #expect(revision.contains("="), "the stand-in's revisions need escaping, as Apple's may")
        let second = try client.transactionHistoryPage(transactionID: original, revision: revision)
        #expect(second.transactions.map(\.value) == Array(added[3..<6]))
    }

    @Test("filters and sort reach Apple: product, type, revoked, descending")
    func filtersAndSort() throws {
        let fixture = try StandInFixture(pageSize: 2)
        let original = "1000000000000100"
        let a = fixture.addTransaction(id: original, original: original, productID: "ai.screenrig.plus.monthly")
        let b = fixture.addTransaction(id: "1000000000000101", original: original, productID: "ai.screenrig.plus.yearly", revoked: true)
        let c = fixture.addTransaction(id: "1000000000000102", original: original, productID: "ai.screenrig.plus.monthly")
        let client = fixture.client()
        #expect(try client.transactionHistory(transactionID: original, query: .init(sort: .descending)).map(\.value) == [c, b, a])
        #expect(try client.transactionHistory(transactionID: original, query: .init(productIDs: ["ai.screenrig.plus.monthly"])).map(\.value) == [a, c])
        #expect(try client.transactionHistory(transactionID: original, query: .init(productTypes: [.consumable])).isEmpty)
        #expect(try client.transactionHistory(transactionID: original, query: .init(revoked: false)).map(\.value) == [a, c])
        #expect(try client.refundHistory(transactionID: original).map(\.value) == [b])
    }

    @Test("all subscription statuses: each subscription's latest transaction and renewal info, verified")
    func subscriptionStatuses() throws {
        let fixture = try StandInFixture()
        let original = "1000000000000200"
        fixture.addTransaction(id: original, original: original, purchasedMillisecondsAgo: 40 * 86_400_000)
        let latest = fixture.addTransaction(id: "1000000000000201", original: original)
        let renewal = fixture.signer.renewalInfo(originalTransactionID: original)
        fixture.standIn.setSubscription(originalTransactionID: original, renewalInfo: renewal, status: 4)
        let client = fixture.client()
        let statuses = try client.allSubscriptionStatuses(transactionID: original)
        #expect(statuses.groups.count == 1)
        let last = try #require(statuses.groups.first?.lastTransactions.first)
        #expect(last.status == 4 && last.originalTransactionID == original)
        #expect(last.transaction.value == latest && last.renewalInfo.jws == renewal)
        #expect(try client.allSubscriptionStatuses(transactionID: original, statuses: [.active]).groups.isEmpty)
        #expect(try client.allSubscriptionStatuses(transactionID: original, statuses: [.billingGracePeriod]).groups.count == 1)
    }

    @Test("order lookup, consumption information and a renewal date extension")
    func theOtherEndpoints() throws {
        let fixture = try StandInFixture()
        let original = "1000000000000300"
        let transaction = fixture.addTransaction(id: original, original: original)
        fixture.standIn.setOrder("MK5TTTVWJH", transactionIDs: [original])
        let client = fixture.client()
        let order = try client.lookUpOrder(orderID: "MK5TTTVWJH")
        #expect(order.isValid && order.transactions.map(\.value) == [transaction])
        #expect(try client.lookUpOrder(orderID: "UNKNOWN").isValid == false)

        try client.sendConsumptionInformation(transactionID: original, consumption(consented: true, accountTenure: 3))
        #expect(fixture.standIn.consumptionReceived[original]?["accountTenure"] == 3)
        let refused = try #require(throws: AppStoreServerAPIError.self) {
            try client.sendConsumptionInformation(transactionID: original, consumption(consented: false))
        }
        #expect(refused.code == .invalidRequest)

        let request = AppStoreExtendRenewalDateRequest(extendByDays: 7, extendReasonCode: 3, requestIdentifier: UUID())
        let extended = try client.extendRenewalDate(originalTransactionID: original, request)
        let expires = try #require(transaction.expiresDate)
        #expect(extended.success && extended.originalTransactionID == original)
        #expect(extended.effectiveDate.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } == expires.microseconds / 1000 + 7 * 86_400_000)
        #expect(try client.extendRenewalDate(originalTransactionID: original, request) == extended, "the same request identifier, the same answer")
        #expect(throws: AppStoreServerAPIError.self) {
            try client.extendRenewalDate(originalTransactionID: original, .init(extendByDays: 91, extendReasonCode: 0, requestIdentifier: UUID()))
        }
    }
}

/// Consumption information with every field undeclared but those given.
private func consumption(consented: Bool, accountTenure: Int = 0) -> ConsumptionInformation {
    ConsumptionInformation(customerConsented: consented, consumptionStatus: 0, platform: 0, sampleContentProvided: false, deliveryStatus: 0,
                           appAccountToken: nil, accountTenure: accountTenure, playTime: 0, lifetimeDollarsRefunded: 0,
                           lifetimeDollarsPurchased: 0, userStatus: 0, refundPreference: 0)
}
