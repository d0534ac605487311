import AppStore

/// What Get Test Notification Status answers: the test notification Apple sent, verified,
/// and what became of each attempt to deliver it.
public struct AppStoreTestNotificationStatus: Sendable, Equatable {
    public var notification: AppStoreSignedValue<AppStoreNotification>
    public var sendAttempts: [AppStoreSendAttempt]

    public init(notification: AppStoreSignedValue<AppStoreNotification>, sendAttempts: [AppStoreSendAttempt]) {
        self.notification = notification
        self.sendAttempts = sendAttempts
    }
}
