import AppStore
import Foundation

/// One record of Get Notification History: the notification Apple sent (or tried to), as
/// signed and as verified, and what became of each attempt to deliver it.
public struct AppStoreNotificationHistoryItem: Sendable, Equatable {
    public var notification: AppStoreSignedValue<AppStoreNotification>
    public var sendAttempts: [AppStoreSendAttempt]

    public init(notification: AppStoreSignedValue<AppStoreNotification>, sendAttempts: [AppStoreSendAttempt]) {
        self.notification = notification
        self.sendAttempts = sendAttempts
    }

    /// Whether no attempt succeeded: what the ledger may have missed.
    public var neverDelivered: Bool { !sendAttempts.contains { $0.result == AppStoreSendAttempt.success } }
}
