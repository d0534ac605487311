import LedgerJSON
import LedgerServices

/// `ledger admin payer list`: every payer, its plan and the projects it funds now.
struct PayerListAction: AdminAction {
    static let words = ["payer", "list"]
    static let synopsis = ""
    static let summary = "List the payers: id, name, plan, storage allowance and the projects each funds now."
    static let valued: Set<String> = []
    static let isOperatorAct = false

    init(_ options: AdminOptions) throws {}

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let payers = try session.answerCaughtUp(PayerListQuery()) ?? []
        var receipt = AdminReceipt()
        receipt.fields["payers"] = try JSONValueEncoder().encode(payers)
        receipt.lines = payers.isEmpty ? ["no payers"] : TextTable.lines(
            ["payer", "name", "plan", "allowance_bytes", "projects"],
            payers.map { [$0.id, $0.name, $0.plan, String($0.allowanceStorageBytes), $0.projects.joined(separator: ",")] },
            rightAligned: [3])
        return receipt
    }
}
