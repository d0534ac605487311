import AppStore

/// One page of Get Transaction History or Get Refund History: its signed transactions,
/// verified, and the `revision` to send for the next page while `hasMore`.
public struct AppStoreTransactionPage: Sendable, Equatable {
    public var transactions: [AppStoreSignedValue<AppStoreTransaction>]
    public var hasMore: Bool
    /// The token for the next page. Apple also gives it on the last page: kept, it asks
    /// later for only what changed since (transaction history).
    public var revision: String?
    /// `bundleId`, `appAppleId` and `environment` of the answer (unsigned; the signed
    /// transactions carry their own, checked).
    public var bundleID: String?
    public var appAppleID: Int64?
    public var environment: String?

    public init(transactions: [AppStoreSignedValue<AppStoreTransaction>], hasMore: Bool, revision: String?,
                bundleID: String? = nil, appAppleID: Int64? = nil, environment: String? = nil) {
        self.transactions = transactions
        self.hasMore = hasMore
        self.revision = revision
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.environment = environment
    }
}
