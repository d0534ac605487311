import LedgerDomain
import LedgerServices

/// `ledger admin plan set`: `plan.set` on the pool owner's stream.
struct PlanSetAction: AdminAction {
    static let words = ["plan", "set"]
    static let synopsis = "--pool payer:ID|project:ID --plan NAME --allowance-storage-bytes N"
    static let summary = "Set a pool's plan and its free storage (U3)."
    static let valued: Set<String> = ["pool", "plan", "allowance-storage-bytes"]

    let pool: Pool
    let plan: (name: String, allowance: Int64)

    init(_ options: AdminOptions) throws {
        pool = try options.pool("pool")
        guard let plan = try options.plan(required: true) else { throw UsageError("--plan is required") }
        self.plan = plan
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let choice = AccountsDecider.PlanChoice(name: plan.name, allowanceStorageBytes: plan.allowance)
        return AdminReceipt(events: try session.perform(PlanSetAct(pool: pool, plan: choice)))
    }
}
