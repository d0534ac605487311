import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger admin payer show`: one payer, its balance (as `GET /v1/payers/{id}/balance`
/// answers it), the projects it funds and its keys.
struct PayerShowAction: AdminAction {
    static let words = ["payer", "show"]
    static let synopsis = "--id ID"
    static let summary = "Show a payer: plan, allowance, balance, the projects it funds now, its keys (prefixes only)."
    static let valued: Set<String> = ["id"]
    static let isOperatorAct = false

    let id: String

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "payer")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let overview = try session.answerCaughtUp(PayerOverviewQuery(id)) else {
            throw AdminError(.notFound, "payer \(id) does not exist")
        }
        let (payer, keys, balance) = (overview.payer, overview.keys, overview.balance)
        var receipt = AdminReceipt()
        receipt.fields["payer"] = try JSONValueEncoder().encode(payer)
        receipt.fields["keys"] = try JSONValueEncoder().encode(keys)
        receipt.fields["balance"] = try balance.map { try JSONValueEncoder().encode($0) } ?? .null
        receipt.lines = [
            "payer \(payer.id): \(payer.name) (created at position \(payer.position))",
            "plan \(payer.plan), storage allowance \(Self.bytes(payer.allowanceStorageBytes))",
        ] + (balance?.lines ?? []) + [
            "projects funded now: " + (payer.projects.isEmpty ? "none" : payer.projects.joined(separator: ", ")),
        ] + KeyListAction.lines(keys)
        return receipt
    }

    /// `900 MiB (943718400 bytes)`; small counts once: `1,000 bytes`.
    static func bytes(_ count: Int64) -> String {
        let text = Quantity(count).bytesText
        return text.hasSuffix("bytes") || text.hasSuffix("byte") ? text : "\(text) (\(count) bytes)"
    }
}
