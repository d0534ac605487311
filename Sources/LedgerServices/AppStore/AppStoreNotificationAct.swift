import AppStore
import LedgerDomain
import LedgerJSON

/// N1–N8: an App Store Server Notification V2, verified by the front end, decided by
/// `AppStoreDecider` for the organization whose account token its transaction names, and
/// recorded once per notification UUID: delivered to the ledger's URL or recovered from
/// Apple's notification history, the same event either way (only the metadata says which).
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

    /// How a notification reached the ledger.
    public enum Source: Sendable, Hashable {
        /// Apple sent it to the ledger's URL (this request).
        case delivered(requestID: String?)
        /// A sync found it in Apple's notification history (`sync` names the run, which
        /// `ledger appstore sync status` shows with its window).
        case notificationHistory(sync: String)
    }

    /// The metadata its events are appended with: Apple as the actor, the notification's
    /// UUID as the correlation, its type, and where it came from (`source`).
    public static func metadata(for verified: AppStoreNotification, source: Source) -> EventMetadata {
        var extra: [String: JSONValue] = ["notification_type": .string(ExternalID.text(verified.notificationType)),
                                          "subtype": verified.subtype.map { .string(ExternalID.text($0)) } ?? .null]
        let requestID: String?
        let actor: Actor
        switch source {
        case .delivered(let id):
            requestID = id
            actor = Actor(.apple, "app-store-server-notifications")
            extra["source"] = .string("delivered")
        case .notificationHistory(let sync):
            requestID = nil
            actor = Actor(.apple, "notification-history")
            extra["source"] = .string("notification_history")
            extra["sync_id"] = .string(sync)
        }
        return EventMetadata(actor: actor, requestID: requestID, correlationID: ExternalID.value(verified.notificationUUID), extra: extra)
    }
}
