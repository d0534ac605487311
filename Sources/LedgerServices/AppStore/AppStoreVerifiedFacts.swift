import AppStore
import LedgerDomain

extension AppStoreTransactionFacts {
    /// What the rules read of a transaction Apple signed and the AppStore module verified.
    public init(_ t: AppStoreTransaction) {
        self.init(transactionID: t.transactionID, originalTransactionID: t.originalTransactionID, productID: t.productID,
                  purchaseDate: t.purchaseDate, expiresDate: t.expiresDate, revocationDate: t.revocationDate,
                  signedDate: t.signedDate, environment: t.environment, appAccountToken: t.appAccountToken,
                  inAppOwnershipType: t.inAppOwnershipType, offerType: t.offerType, offerIdentifier: t.offerIdentifier,
                  offerDiscountType: t.offerDiscountType)
    }
}

extension AppStoreDecider.Notification {
    /// What the rules read of a verified notification: the same whether it was delivered
    /// to the ledger's URL or recovered from Apple's notification history.
    public init(_ verified: AppStoreNotification) {
        let renewal = verified.renewalInfo
        self.init(notificationUUID: verified.notificationUUID, type: verified.notificationType, subtype: verified.subtype,
                  signedDate: verified.signedDate, environment: verified.environment,
                  transaction: verified.transaction.map(AppStoreTransactionFacts.init),
                  gracePeriodExpires: renewal?.gracePeriodExpiresDate, priceIncreaseStatus: renewal?.priceIncreaseStatus,
                  renewalPrice: renewal?.renewalPrice, currency: renewal?.currency,
                  summary: verified.summary.map {
                      AppStoreRenewalExtensionSummary(requestIdentifier: $0.requestIdentifier, productID: $0.productID,
                                                      succeededCount: $0.succeededCount, failedCount: $0.failedCount)
                  }, bundleID: verified.bundleID)
    }
}
