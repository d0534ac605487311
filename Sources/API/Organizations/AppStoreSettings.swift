import AppStore
import LedgerDomain

/// How the App Store surfaces are configured.
public struct AppStoreSettings: Sendable {
    /// The app's bundle ID (T3).
    public var bundleID: String
    /// The App Store product of each plan (O6); transactions for other products are not plans.
    public var products: [Plan: String]
    /// K-12 school domains (O7).
    public var schoolDomains: SchoolDomains
    /// Signs session cookies (shared with the identity service).
    public var sessionSecret: [UInt8]
    /// The origin the app is served from; writes must come from it (T2).
    public var publicOrigin: String
    /// Notifications accepted per client address and second (N8), burst twice that.
    public var notificationsPerSecond: Double
    /// Verifies Apple's signed payloads under the deployment's environment policy (T3).
    public var verifier: AppStoreVerifier

    public init(bundleID: String = "ai.screenrig.app",
                products: [Plan: String] = AppStoreSettings.defaultProducts,
                schoolDomains: SchoolDomains = .defaults, sessionSecret: [UInt8],
                publicOrigin: String = "https://app.screenrig.ai", notificationsPerSecond: Double = 20,
                policy: AppStoreEnvironmentPolicy = .production) {
        self.bundleID = bundleID
        self.products = products
        self.schoolDomains = schoolDomains
        self.sessionSecret = sessionSecret
        self.publicOrigin = publicOrigin
        self.notificationsPerSecond = notificationsPerSecond
        self.verifier = AppStoreVerifier(policy: policy, bundleID: bundleID)
    }

    public static let defaultProducts: [Plan: String] = [
        .plus: "ai.screenrig.plus.monthly",
        .education: "ai.screenrig.education.monthly",
        .premium: "ai.screenrig.premium.monthly",
    ]

    /// The plans' products, as the rules read them.
    public var catalog: AppStoreProducts { AppStoreProducts(products) }
}
