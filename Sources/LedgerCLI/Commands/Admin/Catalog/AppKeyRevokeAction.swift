import LedgerDomain

/// `ledger admin app key revoke`: `app.key_revoked` on `app-<id>`; the key then answers
/// 403. A key is revoked once, and only by the app it was issued for.
struct AppKeyRevokeAction: AppEventAction {
    static let words = ["app", "key", "revoke"]
    static let synopsis = "--app ID --key-id KEY"
    static let summary = "Revoke an app's publishable key: it no longer reads the catalog."
    static let valued: Set<String> = ["app", "key-id"]

    let app: String
    let keyID: String

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        keyID = try options.identifier("key-id", "key")
    }

    func decide(_ state: AppState) throws -> Decision { try CatalogDecider.revokeKey(keyID, app: state) }
}
