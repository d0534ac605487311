import LedgerDomain

/// `ledger admin app enable`: `app.status_changed` with `enabled: true` on `app-<id>`,
/// undoing `app disable` (revoked keys stay revoked).
struct AppEnableAction: AppEventAction {
    static let words = ["app", "enable"]
    static let synopsis = "--app ID"
    static let summary = "Enable a disabled app again."
    static let valued: Set<String> = ["app"]

    let app: String

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
    }

    func decide(_ state: AppState) throws -> Decision { try CatalogDecider.setEnabled(true, app: state) }
}
