import LedgerDomain

/// `ledger admin app disable`: `app.status_changed` with `enabled: false` on `app-<id>`;
/// every key of the app then answers 403, until `app enable`.
struct AppDisableAction: AppEventAction {
    static let words = ["app", "disable"]
    static let synopsis = "--app ID"
    static let summary = "Disable an app: its keys answer 403 (its configuration is kept)."
    static let valued: Set<String> = ["app"]

    let app: String

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
    }

    func decide(_ state: AppState) throws -> Decision { try CatalogDecider.setEnabled(false, app: state) }
}
