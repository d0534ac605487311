@testable import LedgerServices
import Testing
import TestSupport

@Suite("Campaign impressions", .bounded)
struct CampaignImpressionsTests {
    @Test("each variant's share is of its own campaign's impressions, in the projection's order; a campaign never served shares 0")
    func shares() {
        let rows = CampaignImpressions.counted([
            (campaignID: "annual", variantID: nil, count: 7),
            (campaignID: "spring", variantID: nil, count: 10), (campaignID: "spring", variantID: 1, count: 30),
            (campaignID: "spring", variantID: 2, count: 30), (campaignID: "idle", variantID: 1, count: 0),
        ])
        #expect(rows.map(\.campaignID) == ["annual", "spring", "spring", "spring", "idle"])
        #expect(rows.map(\.campaignCount) == [7, 70, 70, 70, 0])
        #expect(rows.map { (($0.sharePercent * 10).rounded()) / 10 } == [100, 14.3, 42.9, 42.9, 0])
        #expect(CampaignImpressions.counted([]).isEmpty)
    }
}
