import Crypto
import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger admin key issue`: a new secret key, of which the log keeps only the SHA-256
/// and a recognisable prefix (`key.issued` on `key-<key_id>`). The secret is printed once.
struct KeyIssueAction: AdminAction {
    static let words = ["key", "issue"]
    static let synopsis = "(--project ID | --payer ID | --service NAME | --auditor NAME) [--key-id ID]"
    static let summary = "Issue a secret key for a project or payer (sk_live_…), an internal service (sk_svc_…) or an auditor of the log's proofs (sk_aud_…); shown once."
    static let valued: Set<String> = ["project", "payer", "service", "auditor", "key-id"]

    /// Characters of the key kept in the log to recognise it: the kind and a few random ones.
    static let prefixLength = 12
    static let warning = "this is the only time the secret is shown: the ledger keeps only its SHA-256, so it cannot be shown again"

    let principal: KeyPrincipal
    let keyID: String?

    init(_ options: AdminOptions) throws {
        switch try options.exactlyOne(of: ["project", "payer", "service", "auditor"]) {
        case "project": principal = KeyPrincipal(kind: .project, id: try options.identifier("project", "project"))
        case "payer": principal = KeyPrincipal(kind: .payer, id: try options.identifier("payer", "payer"))
        case "auditor": principal = KeyPrincipal(kind: .auditor, id: try options.identifier("auditor", "auditor"))
        default: principal = KeyPrincipal(kind: .service, id: try options.identifier("service", "service"))
        }
        keyID = try options.optionalIdentifier("key-id", "key")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let keyID = self.keyID ?? "key_" + Hex.encode(SecureRandom.bytes(4))
        // 256 random bits: a plain SHA-256 is then enough to store it (docs/billing.md).
        let kind = [KeyPrincipal.Kind.service: "sk_svc_", .auditor: "sk_aud_"][principal.kind] ?? "sk_live_"
        let secret = kind + Base64URL.encode(SecureRandom.bytes(32))
        let appended = try session.perform(KeyIssueAct(keyID: keyID, principal: principal, sha256: Hex.encode(SHA256.hash(Array(secret.utf8))),
                                                       prefix: String(secret.prefix(Self.prefixLength))))
        var receipt = AdminReceipt(events: appended)
        receipt.fields["secret"] = .string(secret)
        receipt.fields["key_id"] = .string(keyID)
        receipt.fields["warning"] = .string(Self.warning)
        receipt.lines = ["", "secret key \(keyID) for \(principal.kind.rawValue) \(principal.id):", "  \(secret)",
                         "warning: \(Self.warning)"]
        return receipt
    }
}
