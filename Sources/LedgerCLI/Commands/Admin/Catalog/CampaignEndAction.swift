import LedgerDomain

/// `ledger admin campaign end`: `iap.campaign_ended` on `app-<id>`: the app's active
/// migration or upgrade campaign of that id is no longer offered.
struct CampaignEndAction: AppEventAction {
    static let words = ["campaign", "end"]
    static let synopsis = "--app ID --id CAMPAIGN"
    static let summary = "End an app's active campaign: its offer is no longer shown."
    static let valued: Set<String> = ["app", "id"]

    let app: String
    let campaignID: String

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        campaignID = try options.catalogID("id", "campaign", maximumLength: 100)
    }

    func decide(_ state: AppState) throws -> Decision { try CatalogDecider.endCampaign(campaignID, app: state) }
}
