import AppStore
import Foundation

/// What the stand-in knows as Apple does: the In-App Purchase key's public half and its
/// key id, the issuer id and the app; and how it signs and pages its answers.
public struct AppStoreServerStandInConfiguration: Sendable {
    public var issuerID: String
    public var keyID: String
    public var bundleID: String
    /// The key whose public half checks the JWT's signature (only verification is used).
    public var key: AppStoreSigningKey
    /// Signs what the stand-in answers (transactions and notifications it is given as
    /// payloads, test notifications); its bundle id should be `bundleID`.
    public var signer: AppStoreTestSigner
    /// The `environment` of the answers (`Sandbox`, as Apple's sandbox host).
    public var environment: String
    /// The app's Apple id, written in answers.
    public var appAppleID: Int64
    /// Records per page of notification history (20 at Apple) and of transaction history
    /// and refund history (20 at Apple).
    public var pageSize: Int
    /// Now, for the token's expiry and the dates it writes.
    public var clock: @Sendable () -> Date
    /// Where `POST /standin/notifications` delivers (the ledger's sandbox notification URL
    /// under `ledger dev`); nil: that route answers 409.
    public var notificationURL: String?

    public init(issuerID: String, keyID: String, bundleID: String, key: AppStoreSigningKey, signer: AppStoreTestSigner,
                environment: String = AppStoreEnvironmentPolicy.Environment.sandbox, appAppleID: Int64 = 6_450_000_000,
                pageSize: Int = 20, clock: @escaping @Sendable () -> Date = { Date() }, notificationURL: String? = nil) {
        self.issuerID = issuerID
        self.keyID = keyID
        self.bundleID = bundleID
        self.key = key
        self.signer = signer
        self.environment = environment
        self.appAppleID = appAppleID
        self.pageSize = max(1, pageSize)
        self.clock = clock
        self.notificationURL = notificationURL
    }
}
