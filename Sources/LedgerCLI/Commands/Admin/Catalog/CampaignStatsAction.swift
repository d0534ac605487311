import Foundation
import LedgerDomain
import LedgerJSON

/// `ledger admin campaign stats`: how often each campaign's offer (and each experiment
/// variant) was served to an app's users, from the IAP projection. Read-only.
struct CampaignStatsAction: AdminAction {
    static let words = ["campaign", "stats"]
    static let synopsis = "--app ID"
    static let summary = "Show an app's offer impressions by campaign and variant, with each variant's share of its campaign."
    static let valued: Set<String> = ["app"]
    static let isOperatorAct = false

    /// One row of `proj_iap.impressions`.
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
        let raw = try session.pool.read { conn -> [(String, Int64?, Int64)]? in
            // The projection is created by the projector; until then there is nothing to read.
            guard try conn.query("SELECT to_regclass('proj_iap.impressions') IS NOT NULL")[0].bool(0) == true else { return nil }
            return try conn.query("""
                SELECT campaign_id, variant_id, count FROM proj_iap.impressions WHERE app_id = $1
                ORDER BY campaign_id, variant_id NULLS FIRST
                """, [app]).rows.map { (try $0.requireString(0), $0.int64(1), try $0.requireInt64(2)) }
        }
        guard let raw else {
            throw AdminError(.projectionUnavailable, "the IAP projection (proj_iap.impressions) does not exist yet: start the projector (`ledger project`) and retry")
        }
        let totals = Dictionary(raw.map { ($0.0, $0.2) }, uniquingKeysWith: +)
        return raw.map { campaign, variant, count in
            let total = totals[campaign] ?? 0
            // A share for display, not money: a double is exact enough for one decimal.
            let share = total > 0 ? Double(count) / Double(total) * 100 : 0
            return Row(campaignID: campaign, variantID: variant, count: count, share: String(format: "%.1f", share))
        }
    }

    /// Aligned columns: campaign, variant (`-` outside an experiment), impressions, share.
    static func table(_ rows: [Row]) -> [String] {
        let cells = [["campaign", "variant", "impressions", "share"]]
            + rows.map { [$0.campaignID, $0.variantID.map(String.init) ?? "-", String($0.count), $0.share + "%"] }
        let widths = (0..<4).map { column in cells.map { $0[column].count }.max() ?? 0 }
        return cells.map { cell in
            (0..<4).map { column in
                let pad = String(repeating: " ", count: widths[column] - cell[column].count)
                return column < 2 ? cell[column] + pad : pad + cell[column] // numbers align right
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}
