import LedgerDomain

/// `ledger admin campaign migration`: `iap.migration_campaign_configured` on `app-<id>`:
/// Switch & Save, offering StoreKit subscribers of the eligible products a web product at
/// a discount. An app has one at a time: this replaces the active one.
struct CampaignMigrationAction: AppEventAction {
    static let words = ["campaign", "migration"]
    static let synopsis = "--app ID --id CAMPAIGN --product PRODUCT --eligible PRODUCT,… --discount PERCENT --title TEXT --message TEXT "
        + CampaignTargetingOptions.synopsis
    static let summary = "Configure an app's Switch & Save campaign (replacing the active one); its products must be in the catalog."
    static let valued = Set(["app", "id", "product", "eligible", "discount", "title", "message"]).union(CampaignTargetingOptions.valued)

    let app: String
    let campaign: MigrationCampaignConfig

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        guard let discount = try options.integer("discount") else { throw UsageError("--discount is required") }
        campaign = MigrationCampaignConfig(
            campaignID: try options.catalogID("id", "campaign", maximumLength: 100), productID: try options.catalogID("product", "product"),
            eligibleProductIDs: try options.catalogIDList("eligible", "product"), discountPercent: discount,
            title: try options.text("title", maximumLength: 200), message: try options.text("message", maximumLength: 2_000),
            targeting: try CampaignTargetingOptions.parse(options))
        let own = (1...100).contains(campaign.discountPercent) ? [] : ["discount_percent must be 1 to 100"]
        try AdminOptions.refuse(own + campaign.targeting.problems, in: "campaign \(campaign.campaignID)")
    }

    func decide(_ state: AppState) throws -> Decision { try CatalogDecider.configureMigration(campaign, app: state) }
}
