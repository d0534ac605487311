import Crypto
import LedgerDomain

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
        let state = try AppStream.load(app, session: session)
        // Key ids are unique across apps (the catalog looks keys up by id), hence 64 random bits.
        var keyID: String
        repeat { keyID = "appkey_" + Hex.encode(SecureRandom.bytes(8)) } while state.keys[keyID] != nil
        let key = mode.prefix + Hex.encode(SecureRandom.bytes(Self.randomBytes))
        let decision = try session.decide {
            try CatalogDecider.issueKey(keyID: keyID, mode: mode, sha256: Hex.encode(SHA256.hash(Array(key.utf8))),
                                        prefix: String(key.prefix(mode.prefix.count + Self.prefixRandomCharacters)), app: state)
        }
        let appended = try session.append(decision)
        var receipt = AdminReceipt(events: appended)
        receipt.fields["key"] = .string(key)
        receipt.fields["key_id"] = .string(keyID)
        receipt.fields["warning"] = .string(Self.warning)
        receipt.lines = ["", "publishable \(mode.rawValue) key \(keyID) for app \(app):", "  \(key)", "warning: \(Self.warning)"]
        return receipt
    }
}
