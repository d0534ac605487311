import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger admin key list`: the secret keys, by their id and printable prefix; the log
/// holds only each key's SHA-256, so no command can print a key again.
struct KeyListAction: AdminAction {
    static let words = ["key", "list"]
    static let synopsis = "[--project ID | --payer ID | --service NAME | --auditor NAME]"
    static let summary = "List the secret keys (id, whom each speaks for, prefix, revoked), all or one principal's."
    static let valued: Set<String> = ["project", "payer", "service", "auditor"]
    static let isOperatorAct = false

    let principal: KeyPrincipal?

    init(_ options: AdminOptions) throws {
        let given = ["project", "payer", "service", "auditor"].filter(options.has)
        guard given.count <= 1 else { throw UsageError("give only one of --project, --payer, --service, --auditor") }
        switch given.first {
        case "project": principal = KeyPrincipal(kind: .project, id: try options.identifier("project", "project"))
        case "payer": principal = KeyPrincipal(kind: .payer, id: try options.identifier("payer", "payer"))
        case "service": principal = KeyPrincipal(kind: .service, id: try options.identifier("service", "service"))
        case "auditor": principal = KeyPrincipal(kind: .auditor, id: try options.identifier("auditor", "auditor"))
        default: principal = nil
        }
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let keys = try session.answerCaughtUp(KeyListQuery(of: principal)) ?? []
        var receipt = AdminReceipt()
        receipt.fields["keys"] = try JSONValueEncoder().encode(keys)
        receipt.lines = Self.lines(keys)
        return receipt
    }

    /// The keys as a table, or a line saying there are none.
    static func lines(_ keys: KeyListQuery.Answer) -> [String] {
        keys.isEmpty ? ["no keys"] : TextTable.lines(
            ["key", "principal", "prefix", "revoked", "issued"],
            keys.map { [$0.keyID, $0.principal, $0.prefix + "…", $0.revoked ? "yes" : "no", String($0.position)] },
            rightAligned: [4])
    }
}
