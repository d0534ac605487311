import LedgerDomain
import LedgerServices

/// `ledger admin credit`: `credit.posted` on the pool owner's stream (J4: credit enters
/// only through operators and rails, never through the public HTTP surface).
struct CreditAction: AdminAction {
    static let words = ["credit"]
    static let synopsis = "--pool payer:ID|project:ID --source plan|purchase|grant --amount AMOUNT --description TEXT"
    static let summary = "Post credit to a pool (a positive amount of millicredits)."
    static let valued: Set<String> = ["pool", "source", "amount", "description"]

    let pool: Pool
    let source: CreditSource
    let amount: Millicredits
    let description: String

    init(_ options: AdminOptions) throws {
        pool = try options.pool("pool")
        let text = try options.arguments.require("source")
        guard let source = CreditSource(rawValue: text) else {
            throw UsageError("--source must be one of \(CreditSource.allCases.map(\.rawValue).joined(separator: ", ")), got \(text.debugDescription)")
        }
        self.source = source
        amount = try options.amount("amount", .positive)
        description = try options.text("description")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(CreditAct(pool: pool, source: source, amount: amount, description: description)))
    }
}
