import AppStore

/// What Get All Subscription Statuses answers (`StatusResponse`): for each subscription
/// group of the customer, the latest transaction and renewal info of each subscription in
/// it, verified.
public struct AppStoreSubscriptionStatuses: Sendable, Equatable {
    /// One subscription group (`SubscriptionGroupIdentifierItem`).
    public struct Group: Sendable, Equatable {
        public var subscriptionGroupIdentifier: String
        public var lastTransactions: [LastTransaction]
    }

    /// One subscription's latest state (`lastTransactionsItem`).
    public struct LastTransaction: Sendable, Equatable {
        /// `status`: 1 active, 2 expired, 3 in billing retry, 4 in billing grace period, 5 revoked.
        public var status: Int64
        public var originalTransactionID: String
        public var transaction: AppStoreSignedValue<AppStoreTransaction>
        public var renewalInfo: AppStoreSignedValue<AppStoreRenewalInfo>
    }

    /// The `status` values Apple documents, for the `status` filter.
    public enum Status: Int64, Sendable, CaseIterable {
        case active = 1
        case expired = 2
        case billingRetry = 3
        case billingGracePeriod = 4
        case revoked = 5
    }

    public var groups: [Group]
    public var bundleID: String?
    public var appAppleID: Int64?
    public var environment: String?
}
