import LedgerDomain
import LedgerJSON

/// `ledger admin campaign list`: an app's running campaigns (a migration offer and an
/// upgrade offer at most), with their targeting.
struct CampaignListAction: AdminAction {
    static let words = ["campaign", "list"]
    static let synopsis = "--app ID"
    static let summary = "List an app's running campaigns: kind, id, products, discount, rollout and variants."
    static let valued: Set<String> = ["app"]
    static let isOperatorAct = false

    let app: String

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let catalog = try AppListAction.app(app, session: session).catalog
        var receipt = AdminReceipt()
        receipt.fields["app_id"] = .string(app)
        receipt.fields["campaigns"] = try Self.json(catalog)
        receipt.lines = Self.lines(catalog)
        return receipt
    }

    static func json(_ catalog: AppCatalog) throws -> JSONValue {
        .object(["migration": try catalog.migration.map { try JSONValueEncoder().encode($0) } ?? .null,
                 "upgrade": try catalog.upgrade.map { try JSONValueEncoder().encode($0) } ?? .null])
    }

    static func lines(_ catalog: AppCatalog) -> [String] {
        var lines: [String] = []
        if let m = catalog.migration {
            lines.append("migration campaign \(m.campaignID): \(m.productID), \(m.discountPercent)% off for \(m.eligibleProductIDs.joined(separator: ","))"
                         + "; " + targeting(m.targeting))
        }
        if let u = catalog.upgrade {
            lines.append("upgrade campaign \(u.campaignID): " + u.upgradePaths.map { "\($0.fromProductID) → \($0.toProductID) (\($0.upgradeType.rawValue))" }.joined(separator: ", ")
                         + "; " + targeting(u.targeting))
        }
        return lines.isEmpty ? ["no running campaigns"] : lines
    }

    private static func targeting(_ t: CampaignTargeting) -> String {
        var text = "rollout \(t.rolloutPercent)%, from day \(t.minSubscriptionDays)"
        if let max = t.maxSubscriptionDays { text += " to \(max)" }
        if !t.variants.isEmpty { text += ", variants " + t.variants.map { "\($0.id):\($0.weight)" }.joined(separator: ",") }
        return text
    }
}
