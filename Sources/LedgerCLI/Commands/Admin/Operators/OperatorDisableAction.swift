import LedgerDomain
import LedgerServices

/// `ledger admin operator disable`: the operator may no longer log in, and their open
/// sessions end at their next request (`operator.disabled`).
struct OperatorDisableAction: AdminAction {
    static let words = ["operator", "disable"]
    static let synopsis = "--name NAME"
    static let summary = "Disable a console operator: no more logins, and their sessions end."
    static let valued: Set<String> = ["name"]

    let name: String

    init(_ options: AdminOptions) throws { name = try options.text("name", maximumLength: 64) }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(OperatorAct(name, .disable)))
    }
}
