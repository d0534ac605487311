extension AppStoreDecider {
    /// Apple asks for consumption information because a customer asked it for a refund.
    public static let consumptionRequest = "CONSUMPTION_REQUEST"

    /// `CONSUMPTION_REQUEST` with a transaction: `appstore.consumption_requested` on the
    /// subscription's stream, deduplicated on the notification's UUID, with `orgID` nil
    /// when the transaction's account token names no organization (the request is still
    /// answered: declined). Without a transaction there is nothing to answer for, and the
    /// notification is acknowledged as any other type.
    static func consumptionRequested(_ n: Notification, _ t: AppStoreTransactionFacts, orgID: String?) -> NotificationOutcome {
        let e = AppStoreConsumptionRequested(orgID: orgID, originalTransactionID: ExternalID.value(t.originalTransactionID),
                                             transactionID: ExternalID.value(t.transactionID), productID: ExternalID.text(t.productID),
                                             bundleID: n.bundleID.map(ExternalID.text), notificationUUID: ExternalID.value(n.notificationUUID),
                                             signedDate: n.signedDate, environment: ExternalID.text(n.environment))
        return NotificationOutcome(decision: Decision(PendingEvent(e, on: t.stream, occurredAt: n.signedDate), idempotencyKey: n.idempotencyKey))
    }
}
