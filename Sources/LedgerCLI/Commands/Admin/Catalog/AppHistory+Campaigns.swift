import LedgerDomain

/// The checks a campaign must pass against the app's catalog before it is configured.
extension AppHistory {
    /// Every product the campaign names is in the catalog, and those it sells on the web
    /// have a web price.
    func checkCampaign(products named: [String], sold: [String]) throws {
        for id in named { _ = try requireProduct(id) }
        if let id = sold.first(where: { products[$0]?.webPrice == nil }) {
            throw AdminError(.noWebPrice, "product \(id) of app \(appID) has no web price, and the campaign sells it on the web: set one with `product set --web-price`")
        }
    }

    /// A campaign id names one campaign at a time: ending it ends whichever holds it, and
    /// impressions are counted by it.
    func checkCampaignID(_ id: String, heldBy other: (kind: String, id: String?)) throws {
        guard other.id != id else {
            throw AdminError(.inUse, "campaign id \(id) is held by the app's active \(other.kind) campaign: choose another id")
        }
    }
}
