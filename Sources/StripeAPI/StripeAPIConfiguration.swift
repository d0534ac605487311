import Outbound

/// What one app's client of Stripe's API needs: which app it serves, the account's secret
/// key, where Stripe is, where requests may go, and how failures are retried.
public struct StripeAPIConfiguration: Sendable {
    /// Stripe's API.
    public static let stripeBaseURL = "https://api.stripe.com"

    /// The ledger's app whose web checkout runs on the account (`ledger admin app stripe set`).
    public var appID: String
    public var secretKey: StripeSecretKey
    /// The scheme and host (and port) requests go to, without a trailing slash.
    public var baseURL: String
    /// Where requests may go: `https` to public addresses for Stripe's own host; a stand-in
    /// on loopback (any other base URL) gets `.development`.
    public var outboundPolicy: OutboundPolicy
    /// Seconds for one request, connecting included.
    public var timeout: Double
    public var retry: StripeAPIRetryPolicy

    public init(appID: String, secretKey: StripeSecretKey, baseURL: String = stripeBaseURL, timeout: Double = 30,
                retry: StripeAPIRetryPolicy = StripeAPIRetryPolicy()) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.appID = appID
        self.secretKey = secretKey
        self.baseURL = base
        outboundPolicy = base == Self.stripeBaseURL ? .production : .development
        self.timeout = timeout
        self.retry = retry
    }

    /// The same with the key's text checked (`stripe_secret_key_invalid`, never quoting it).
    public init(appID: String, secretKey: String, baseURL: String = stripeBaseURL, timeout: Double = 30,
                retry: StripeAPIRetryPolicy = StripeAPIRetryPolicy()) throws(StripeAPIError) {
        self.init(appID: appID, secretKey: try StripeSecretKey(secretKey), baseURL: baseURL, timeout: timeout, retry: retry)
    }
}
