import LedgerJSON
import LedgerServices

/// `ledger admin project list`: every project and the pool funding it now.
struct ProjectListAction: AdminAction {
    static let words = ["project", "list"]
    static let synopsis = "[--payer ID | --self-paying]"
    static let summary = "List the projects and the pool funding each now; only a payer's, or only the self-paying ones."
    static let valued: Set<String> = ["payer"]
    static let boolean: Set<String> = ["self-paying"]
    static let isOperatorAct = false

    let payer: String?
    let selfPaying: Bool

    init(_ options: AdminOptions) throws {
        payer = try options.optionalIdentifier("payer", "payer")
        selfPaying = options.flag("self-paying")
        if payer != nil && selfPaying { throw UsageError("give only one of --payer, --self-paying") }
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let selection: ProjectListQuery.Selection = selfPaying ? .selfPaying : payer.map { .fundedBy(payer: $0) } ?? .all
        let projects = try session.answerCaughtUp(ProjectListQuery(selection)) ?? []
        var receipt = AdminReceipt()
        receipt.fields["projects"] = try JSONValueEncoder().encode(projects)
        receipt.lines = projects.isEmpty ? ["no projects"] : TextTable.lines(
            ["project", "name", "pool", "created"], projects.map { [$0.id, $0.name, $0.pool, String($0.position)] },
            rightAligned: [3])
        return receipt
    }
}
