import LedgerDomain

/// `ledger admin app stripe set`: `app.stripe_configured` on `app-<id>`, the Stripe account
/// and mode (test or live) the app's web checkout runs on. The endpoint secrets and the API
/// key stay configuration (docs/web-checkout.md): nothing secret enters the log.
struct AppStripeSetAction: AppEventAction {
    static let words = ["app", "stripe", "set"]
    static let synopsis = "--app ID --account acct_… --mode test|live"
    static let summary = "Record which Stripe account and mode an app's web checkout runs on (no secret)."
    static let valued: Set<String> = ["app", "account", "mode"]

    let app: String
    let account: String
    let mode: KeyMode

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        account = try options.text("account", maximumLength: 255)
        mode = try options.choice("mode", KeyMode.self)
    }

    func decide(_ state: AppState) throws -> Decision { try CatalogDecider.configureStripe(accountID: account, mode: mode, app: state) }
}
