import LedgerDomain

/// N1–N8: an App Store Server Notification V2, verified by the front end, decided by
/// `AppStoreDecider` for the organization whose account token its transaction names, and
/// recorded once per notification UUID.
public struct AppStoreNotificationAct: LedgerAct {
    public var notification: AppStoreDecider.Notification
    /// `production` or `sandbox`: the URL it was sent to (N7).
    public var receivedAt: String
    public var products: AppStoreProducts

    public init(_ notification: AppStoreDecider.Notification, receivedAt: String, products: AppStoreProducts) {
        self.notification = notification
        self.receivedAt = receivedAt
        self.products = products
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let orgID = try notification.transaction?.appAccountToken.flatMap { try reads.organizations.organization(withAccountToken: $0) }
        return try AppStoreDecider.notification(notification, receivedAt: receivedAt, orgID: orgID, products: products).decision
    }

    /// The same UUID with other content: Apple does not do that; what was recorded first stays.
    public func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict? {
        .alreadyRecorded(AlreadyRecorded("notification \(ExternalID.text(notification.notificationUUID)) was recorded before with other content"))
    }
}
