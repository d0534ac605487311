import LedgerDomain

/// `ledger admin product set`: `iap.product_configured` on `app-<id>`: a product of the
/// app's catalog, created or replaced whole (options left out are absent afterwards).
struct ProductSetAction: AppEventAction {
    static let words = ["product", "set"]
    static let synopsis = """
        --app ID --id PRODUCT --type consumable|non_consumable|non_renewing_subscription|auto_renewable_subscription \
        --name NAME --description TEXT [--web-price DECIMAL --currency CODE] [--group N] [--period P1M] [--trial P7D] \
        [--trial-mode free|paid|auth_hold] [--upfront-cents N] [--hold-cents N]
        """
    static let summary = "Configure a product of an app's catalog (replacing it whole); the web price is a decimal such as 4.99."
    static let valued: Set<String> = ["app", "id", "type", "name", "description", "web-price", "currency", "group", "period",
                                      "trial", "trial-mode", "upfront-cents", "hold-cents"]

    let app: String
    let product: CatalogProduct

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        var product = CatalogProduct(id: try options.catalogID("id", "product"), displayName: try options.text("name", maximumLength: 200),
                                     description: try options.text("description", maximumLength: 2_000),
                                     type: try options.choice("type", ProductType.self))
        product.webPrice = try options.price("web-price", required: false)
        product.subscriptionGroupID = try options.count("group")
        product.subscriptionPeriod = try options.optionalText("period", maximumLength: 40)
        product.freeTrialDuration = try options.optionalText("trial", maximumLength: 40)
        let upfront = try options.integer("upfront-cents"), hold = try options.integer("hold-cents")
        if let mode = try options.optionalChoice("trial-mode", TrialMode.self) {
            product.trial = CatalogProduct.Trial(mode: mode, upfrontAmountCents: upfront ?? 0, holdAmountCents: hold ?? 0)
        } else if upfront != nil || hold != nil {
            throw UsageError("--upfront-cents and --hold-cents need --trial-mode paid or auth_hold")
        }
        try AdminOptions.refuse(product.problems, in: "product \(product.id)")
        self.product = product
    }

    func decide(_ state: AppState) throws -> Decision { try CatalogDecider.setProduct(product, app: state) }
}
