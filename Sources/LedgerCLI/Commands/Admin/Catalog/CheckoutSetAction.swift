import LedgerDomain

/// `ledger admin checkout set`: `iap.checkout_configured` on `app-<id>`: how the SDK
/// presents web checkout and where it is on, replacing the previous configuration whole.
struct CheckoutSetAction: AppEventAction {
    static let words = ["checkout", "set"]
    static let synopsis = "--app ID --sheet webview|native --enabled true|false [--us SHEET:on|off] [--eu SHEET:on|off] [--other SHEET:on|off] [--merchant-id ID]"
    static let summary = "Configure an app's web checkout: the default sheet and whether it is on, overrides by region, the Apple merchant id."
    static let valued = Set(["app", "sheet", "enabled", "merchant-id"]).union(CheckoutConfig.Region.allCases.map(\.rawValue))

    let app: String
    let checkout: CheckoutConfig

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        var checkout = CheckoutConfig(sheetType: try options.choice("sheet", SheetType.self), isEnabled: try options.boolean("enabled"))
        for region in CheckoutConfig.Region.allCases {
            guard let text = options.arguments.value(region.rawValue) else { continue }
            checkout.jurisdictions[region] = try Self.jurisdiction(text, option: region.rawValue)
        }
        // Apple's merchant ids are reverse DNS too: `merchant.com.example`.
        checkout.appleMerchantID = try options.optionalExternalID("merchant-id", "merchant", maximumLength: 200)
        self.checkout = checkout
    }

    /// `webview:on`, `native:off`.
    static func jurisdiction(_ text: String, option: String) throws -> CheckoutConfig.Jurisdiction {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let sheet = SheetType(rawValue: String(parts[0])), ["on", "off"].contains(parts[1]) else {
            let sheets = SheetType.allCases.map(\.rawValue).joined(separator: "|")
            throw UsageError("--\(option) must be SHEET:on or SHEET:off with SHEET one of \(sheets), such as native:on; got \(text.debugDescription)")
        }
        return CheckoutConfig.Jurisdiction(sheetType: sheet, isEnabled: parts[1] == "on")
    }

    func decide(_ state: AppState) throws -> Decision { CatalogDecider.setCheckout(checkout, app: state) }
}
