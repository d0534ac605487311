import AppStore
import Outbound

/// Everything one app's client needs: credentials, environment, the policy its signed
/// answers are verified under, where requests may go, and how failures are retried.
public struct AppStoreServerAPIConfiguration: Sendable {
    public var credentials: AppStoreServerAPICredentials
    public var environment: AppStoreServerAPIEnvironment
    /// The app's Apple id (`appAppleId`). When set, a notification that names another app is
    /// refused; in production Apple always names it, so it should be set there.
    public var appAppleID: Int64?
    /// The roots and environments signed answers are verified under: `.production` for
    /// Apple's hosts, a development policy that trusts the test authority for a stand-in.
    public var verificationPolicy: AppStoreEnvironmentPolicy
    /// Where requests may go: `https` to public addresses for Apple's hosts; a stand-in on
    /// loopback needs `.development`.
    public var outboundPolicy: OutboundPolicy
    /// Seconds for one request, connecting included.
    public var timeout: Double
    public var retry: AppStoreServerAPIRetryPolicy

    /// A configuration for Apple's production or sandbox host (production policies), or for
    /// a stand-in (`AppStoreServerAPIEnvironment.local`, development outbound policy; give it
    /// the development `verificationPolicy` that trusts the stand-in's authority).
    public init(credentials: AppStoreServerAPICredentials, environment: AppStoreServerAPIEnvironment, appAppleID: Int64? = nil,
                verificationPolicy: AppStoreEnvironmentPolicy = .production, timeout: Double = 30,
                retry: AppStoreServerAPIRetryPolicy = AppStoreServerAPIRetryPolicy()) {
        self.credentials = credentials
        self.environment = environment
        self.appAppleID = appAppleID
        self.verificationPolicy = verificationPolicy
        outboundPolicy = environment.isApple ? .production : .development
        self.timeout = timeout
        self.retry = retry
    }
}
