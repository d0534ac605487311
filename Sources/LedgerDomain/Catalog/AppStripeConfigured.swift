/// `app.stripe_configured`, on `app-<id>`: which Stripe account the app's web checkout
/// runs on, and in which mode (test or live), so that the processor's events are checked
/// against it (docs/web-checkout.md). Never a secret: the endpoint secrets and API keys are
/// configuration of the processes that use them.
public struct AppStripeConfigured: DomainEvent {
    public static let type = "app.stripe_configured"
    public var appID: String
    /// `acct_…`.
    public var accountID: String
    public var mode: KeyMode
    enum CodingKeys: String, CodingKey { case appID = "app_id", accountID = "account_id", mode }
    public init(appID: String, accountID: String, mode: KeyMode) {
        self.appID = appID
        self.accountID = accountID
        self.mode = mode
    }

    /// Whether `id` is an account id as Stripe writes them: `acct_` and up to 255
    /// letters and digits.
    public static func isAccountID(_ id: String) -> Bool {
        id.hasPrefix("acct_") && id.utf8.count > 5 && id.utf8.count <= 255
            && id.utf8.dropFirst(5).allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5a) || ($0 >= 0x61 && $0 <= 0x7a) }
    }
}
