/// The `summary` of a `RENEWAL_EXTENSION` notification with the subtype `SUMMARY`: Apple
/// finished a request to extend the renewal date of every eligible subscriber of a
/// product. It names no subscription, so it is acknowledged with what it says.
public struct AppStoreRenewalExtensionSummary: Sendable, Hashable {
    /// The `requestIdentifier` the request to Apple was made with.
    public var requestIdentifier: String?
    public var productID: String?
    public var succeededCount: Int64?
    public var failedCount: Int64?

    public init(requestIdentifier: String?, productID: String?, succeededCount: Int64?, failedCount: Int64?) {
        self.requestIdentifier = requestIdentifier
        self.productID = productID
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }

    /// `renewal date extension <id> of <product>: 120 succeeded, 3 failed`.
    public var description: String {
        let counts = "\(succeededCount.map(String.init) ?? "?") succeeded, \(failedCount.map(String.init) ?? "?") failed"
        return "renewal date extension \(requestIdentifier ?? "?") of \(productID ?? "?"): " + counts
    }
}
