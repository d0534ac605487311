import Crypto
import LedgerDomain
import LedgerServices

/// `ledger admin app key issue`: a publishable key for an app's SDKs (`app.key_issued` on
/// `app-<id>`). As with `key issue`, the log keeps only the key's SHA-256 and a
/// recognisable prefix, and the key is printed once.
struct AppKeyIssueAction: AdminAction {
    static let words = ["app", "key", "issue"]
    static let synopsis = "--app ID --mode test|live"
    static let summary = "Issue a publishable key for an app (zs_pk_test_… or zs_pk_live_…); shown once."
    static let valued: Set<String> = ["app", "mode"]

    /// Random characters after the mode's prefix: 32 hex digits, 128 bits, enough for a
    /// plain SHA-256 to stand for the key.
    static let randomBytes = 16
    /// Random characters kept in the prefix, to tell keys apart in listings.
    static let prefixRandomCharacters = 4
    static let warning = "this is the only time the key is shown: the ledger keeps only its SHA-256, so it cannot be shown again"

    let app: String
    let mode: KeyMode

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        mode = try options.choice("mode", KeyMode.self)
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        // Key ids are unique across apps (the catalog looks keys up by id), hence 64 random bits.
        let keyID = "appkey_" + Hex.encode(SecureRandom.bytes(8))
        let key = mode.prefix + Hex.encode(SecureRandom.bytes(Self.randomBytes))
        let (mode, sha256, prefix) = (mode, Hex.encode(SHA256.hash(Array(key.utf8))), String(key.prefix(mode.prefix.count + Self.prefixRandomCharacters)))
        let appended = try session.perform(AppChangeAct(app: app) { state, _ in
            try CatalogDecider.issueKey(keyID: keyID, mode: mode, sha256: sha256, prefix: prefix, app: state)
        })
        var receipt = AdminReceipt(events: appended)
        receipt.fields["key"] = .string(key)
        receipt.fields["key_id"] = .string(keyID)
        receipt.fields["warning"] = .string(Self.warning)
        receipt.lines = ["", "publishable \(mode.rawValue) key \(keyID) for app \(app):", "  \(key)", "warning: \(Self.warning)"]
        return receipt
    }
}
