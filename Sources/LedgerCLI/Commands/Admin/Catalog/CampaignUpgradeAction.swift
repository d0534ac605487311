import LedgerDomain

/// `ledger admin campaign upgrade`: `iap.upgrade_offer_configured` on `app-<id>`: Upgrade &
/// Save, offering holders of a path's first product its second on the web; the first path
/// a user matches wins, so their order is kept. One at a time: this replaces the active one.
struct CampaignUpgradeAction: AppEventAction {
    static let words = ["campaign", "upgrade"]
    static let synopsis = "--app ID --id CAMPAIGN --path FROM:TO:storekit_to_web|web_to_web [--path …] " + CampaignTargetingOptions.synopsis
    static let summary = "Configure an app's Upgrade & Save campaign (replacing the active one); paths are tried in the order given."
    static let valued = Set(["app", "id", "path"]).union(CampaignTargetingOptions.valued)
    /// One `--path` per path, in order (or several in one, comma-separated).
    static let repeatable: Set<String> = ["path"]

    let app: String
    let campaign: UpgradeOfferConfig

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        _ = try options.arguments.require("path")
        let paths = try options.arguments.values("path").flatMap { try Self.paths($0) }
        campaign = UpgradeOfferConfig(campaignID: try options.catalogID("id", "campaign", maximumLength: 100), upgradePaths: paths,
                                      targeting: try CampaignTargetingOptions.parse(options))
        var own: [String] = []
        for (index, path) in paths.enumerated() {
            if path.fromProductID == path.toProductID { own.append("path \(index + 1) upgrades \(path.fromProductID) to itself") }
            if paths[..<index].contains(where: { $0.fromProductID == path.fromProductID && $0.toProductID == path.toProductID }) {
                own.append("path \(index + 1) repeats \(path.fromProductID) to \(path.toProductID)")
            }
        }
        try AdminOptions.refuse(own + campaign.targeting.problems, in: "campaign \(campaign.campaignID)")
    }

    /// `FROM:TO:TYPE`, comma-separated, in order. (`AdminOptions` refuses a repeated
    /// option, so the paths come in one.)
    static func paths(_ text: String) throws -> [UpgradeOfferConfig.Path] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { item in
            let parts = item.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let types = UpgradeOfferConfig.UpgradeType.allCases.map(\.rawValue).joined(separator: " or ")
            guard parts.count == 3, let type = UpgradeOfferConfig.UpgradeType(rawValue: parts[2]) else {
                throw UsageError("--path must be FROM:TO:TYPE with TYPE \(types), such as pro_monthly:pro_yearly:web_to_web; got \(String(item).debugDescription)")
            }
            let from = try AdminOptions.checkCatalogID(parts[0], option: "path", "product")
            let to = try AdminOptions.checkCatalogID(parts[1], option: "path", "product")
            return UpgradeOfferConfig.Path(fromProductID: from, toProductID: to, upgradeType: type)
        }
    }

    func decide(_ state: AppState) throws -> Decision { try CatalogDecider.configureUpgrade(campaign, app: state) }
}
