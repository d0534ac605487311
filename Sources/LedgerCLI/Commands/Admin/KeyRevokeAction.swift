import LedgerDomain
import LedgerServices

/// `ledger admin key revoke`: `key.revoked` on `key-<key_id>`, which must hold exactly its
/// `key.issued`: a key is revoked once.
struct KeyRevokeAction: AdminAction {
    static let words = ["key", "revoke"]
    static let synopsis = "--key-id ID"
    static let summary = "Revoke a key: it no longer authenticates."
    static let valued: Set<String> = ["key-id"]

    let keyID: String

    init(_ options: AdminOptions) throws {
        keyID = try options.identifier("key-id", "key")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(KeyRevokeAct(keyID: keyID)))
    }
}
