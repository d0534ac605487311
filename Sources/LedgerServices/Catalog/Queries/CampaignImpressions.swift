/// How often one campaign's offer (one experiment variant of it, or the campaign outside an
/// experiment) was served to an app's users, and its share of the campaign's impressions:
/// whether an experiment's arms are served as weighted.
public struct CampaignImpressions: Sendable, Hashable {
    public var campaignID: String
    /// nil: served outside an experiment.
    public var variantID: Int64?
    public var count: Int64
    /// Every impression of the campaign, all variants together.
    public var campaignCount: Int64

    public init(campaignID: String, variantID: Int64?, count: Int64, campaignCount: Int64) {
        self.campaignID = campaignID
        self.variantID = variantID
        self.count = count
        self.campaignCount = campaignCount
    }

    /// Of the campaign's impressions, in percent; 0 for a campaign never served. A share
    /// for display, not money: a double is exact enough.
    public var sharePercent: Double {
        campaignCount > 0 ? Double(count) / Double(campaignCount) * 100 : 0
    }

    /// The projection's counts, each with its campaign's total, in the order given.
    static func counted(_ rows: [(campaignID: String, variantID: Int64?, count: Int64)]) -> [CampaignImpressions] {
        let totals = Dictionary(rows.map { ($0.campaignID, $0.count) }, uniquingKeysWith: +)
        return rows.map {
            CampaignImpressions(campaignID: $0.campaignID, variantID: $0.variantID, count: $0.count, campaignCount: totals[$0.campaignID] ?? 0)
        }
    }
}
