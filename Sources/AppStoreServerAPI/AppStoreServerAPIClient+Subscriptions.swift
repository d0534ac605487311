import AppStore
import LedgerDomain
import Foundation
import LedgerJSON

extension AppStoreServerAPIClient {
    /// Get All Subscription Statuses (`GET /inApps/v1/subscriptions/{transactionId}`):
    /// every subscription of the customer, optionally only those in `statuses`. Not paged:
    /// Apple answers every group at once.
    public func allSubscriptionStatuses(transactionID: String,
                                        statuses: [AppStoreSubscriptionStatuses.Status] = []) throws(AppStoreServerAPIError)
        -> AppStoreSubscriptionStatuses {
        let answer = try call("GET", "/inApps/v1/subscriptions/" + Self.segment(transactionID),
                              query: statuses.map { ("status", String($0.rawValue)) })
        let fields = try AnswerFields(answer, endpoint: "Get All Subscription Statuses")
        var groups: [AppStoreSubscriptionStatuses.Group] = []
        for (g, rawGroup) in try fields.array("data").enumerated() {
            let group = try fields.nested(rawGroup, "data[\(g)]")
            var last: [AppStoreSubscriptionStatuses.LastTransaction] = []
            for (t, rawItem) in try group.array("lastTransactions").enumerated() {
                let item = try group.nested(rawItem, "lastTransactions[\(t)]")
                let place = "data[\(g)].lastTransactions[\(t)]"
                guard let status = try item.optionalInt64("status") else {
                    throw AppStoreServerAPIError(.malformedAnswer, "Get All Subscription Statuses: `\(place).status` should be an integer")
                }
                let transaction = try verifiedTransaction(try item.string("signedTransactionInfo"), in: place + ".signedTransactionInfo")
                let renewal = try verifiedRenewalInfo(try item.string("signedRenewalInfo"), in: place + ".signedRenewalInfo")
                let original = try item.string("originalTransactionId")
                // The unsigned id must be the one the signed values name, or the statuses
                // would be filed under the wrong subscription.
                guard transaction.value.originalTransactionID == original, renewal.value.originalTransactionID == original else {
                    throw AppStoreServerAPIError(.unverifiedSignedValue, "\(place): the signed values name another original transaction")
                }
                last.append(AppStoreSubscriptionStatuses.LastTransaction(status: status, originalTransactionID: original,
                                                                         transaction: transaction, renewalInfo: renewal))
            }
            groups.append(AppStoreSubscriptionStatuses.Group(subscriptionGroupIdentifier: try group.string("subscriptionGroupIdentifier"),
                                                             lastTransactions: last))
        }
        return AppStoreSubscriptionStatuses(groups: groups, bundleID: try fields.optionalString("bundleId"),
                                            appAppleID: try fields.optionalInt64("appAppleId"),
                                            environment: try fields.optionalString("environment"))
    }

    /// Extend a Subscription Renewal Date (`PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`).
    /// Safe to retry: Apple extends once per `requestIdentifier`.
    public func extendRenewalDate(originalTransactionID: String,
                                  _ request: AppStoreExtendRenewalDateRequest) throws(AppStoreServerAPIError) -> AppStoreExtendRenewalDateResult {
        try request.validate()
        let answer = try call("PUT", "/inApps/v1/subscriptions/extend/" + Self.segment(originalTransactionID), body: request.body)
        let fields = try AnswerFields(answer, endpoint: "Extend a Subscription Renewal Date")
        return AppStoreExtendRenewalDateResult(
            success: try fields.bool("success", default: false),
            effectiveDate: try fields.optionalInt64("effectiveDate").map { Date(timeIntervalSince1970: Double($0) / 1000) },
            originalTransactionID: try fields.optionalString("originalTransactionId"),
            webOrderLineItemID: try fields.optionalString("webOrderLineItemId"))
    }

    /// Send Consumption Information (`PUT /inApps/v1/transactions/consumption/{transactionId}`),
    /// answered 202 with no body. A PUT of the same information: safe to retry.
    public func sendConsumptionInformation(transactionID: String, _ request: ConsumptionInformation) throws(AppStoreServerAPIError) {
        try request.validate()
        _ = try call("PUT", "/inApps/v1/transactions/consumption/" + Self.segment(transactionID), body: request.body,
                     accepting: [200, 202])
    }
}
