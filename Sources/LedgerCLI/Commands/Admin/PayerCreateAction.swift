import LedgerDomain
import LedgerServices

/// `ledger admin payer create`: `payer.created`, and `plan.set` in the same append when a
/// plan is given, on a new `payer-<id>` stream.
struct PayerCreateAction: AdminAction {
    static let words = ["payer", "create"]
    static let synopsis = "--id ID --name NAME [--plan NAME --allowance-storage-bytes N]"
    static let summary = "Create a payer, which owns the pool payer:ID (optionally with its plan)."
    static let valued: Set<String> = ["id", "name", "plan", "allowance-storage-bytes"]

    let id: String
    let name: String
    let plan: (name: String, allowance: Int64)?

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "payer")
        name = try options.text("name", maximumLength: 200)
        plan = try options.plan(required: false)
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(PayerCreateAct(
            id: id, name: name, plan: plan.map { AccountsDecider.PlanChoice(name: $0.name, allowanceStorageBytes: $0.allowance) })))
    }
}
