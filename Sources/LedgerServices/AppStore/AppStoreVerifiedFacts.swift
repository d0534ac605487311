import AppStore
import LedgerDomain

extension AppStoreTransactionFacts {
    /// What the rules read of a transaction Apple signed and the AppStore module verified.
    public init(_ t: AppStoreTransaction) {
        self.init(transactionID: t.transactionID, originalTransactionID: t.originalTransactionID, productID: t.productID,
                  purchaseDate: t.purchaseDate, expiresDate: t.expiresDate, revocationDate: t.revocationDate,
                  signedDate: t.signedDate, environment: t.environment, appAccountToken: t.appAccountToken)
    }
}

extension AppStoreDecider.Notification {
    /// What the rules read of a verified notification: the same whether it was delivered
    /// to the ledger's URL or recovered from Apple's notification history.
    public init(_ verified: AppStoreNotification) {
        self.init(notificationUUID: verified.notificationUUID, type: verified.notificationType, subtype: verified.subtype,
                  signedDate: verified.signedDate, environment: verified.environment,
                  transaction: verified.transaction.map(AppStoreTransactionFacts.init),
                  gracePeriodExpires: verified.renewalInfo?.gracePeriodExpiresDate)
    }
}
