import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger admin campaign stats`: how often each campaign's offer (and each experiment
/// variant) was served to an app's users, from the IAP projection. Read-only.
struct CampaignStatsAction: AdminAction {
    static let words = ["campaign", "stats"]
    static let synopsis = "--app ID"
    static let summary = "Show an app's offer impressions by campaign and variant, with each variant's share of its campaign."
    static let valued: Set<String> = ["app"]
    static let isOperatorAct = false

    /// One campaign variant's impressions.
    struct Row {
        var campaignID: String
        var variantID: Int64?
        var count: Int64
        /// Of the campaign's impressions, in percent to one decimal.
        var share: String
    }

    let app: String

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        _ = try AppStream.load(app, session: session)
        let rows = try Self.rows(app, session: session)
        var receipt = AdminReceipt()
        receipt.fields["app_id"] = .string(app)
        receipt.fields["impressions"] = .array(try rows.map { row in
            ["campaign_id": .string(row.campaignID), "variant_id": row.variantID.map(JSONValue.integer) ?? .null,
             "count": .integer(row.count), "share_percent": try JSONValue.decimal(fromLiteral: row.share)]
        })
        receipt.lines = rows.isEmpty ? ["no impressions counted for app \(app)"] : Self.table(rows)
        return receipt
    }

    static func rows(_ app: String, session: AdminSession) throws -> [Row] {
        // The projection is created by the projector; until then there is nothing to read.
        guard let impressions = try session.answer(CampaignImpressionsQuery(app: app)) else { throw AppListAction.catalogNotThereYet }
        return impressions.map {
            Row(campaignID: $0.campaignID, variantID: $0.variantID, count: $0.count, share: String(format: "%.1f", $0.sharePercent))
        }
    }

    /// Aligned columns: campaign, variant (`-` outside an experiment), impressions, share.
    static func table(_ rows: [Row]) -> [String] {
        TextTable.lines(["campaign", "variant", "impressions", "share"],
                        rows.map { [$0.campaignID, $0.variantID.map(String.init) ?? "-", String($0.count), $0.share + "%"] },
                        rightAligned: [2, 3])
    }
}
