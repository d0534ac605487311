import LedgerDomain
import LedgerServices

/// `ledger admin operator reset`: a new generated password, shown once; the sessions of
/// the old one end (`operator.password_reset`).
struct OperatorResetAction: AdminAction {
    static let words = ["operator", "reset"]
    static let synopsis = "--name NAME"
    static let summary = "Give a console operator a new password (shown once); their sessions end."
    static let valued: Set<String> = ["name"]

    let name: String

    init(_ options: AdminOptions) throws { name = try options.text("name", maximumLength: 64) }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        // Decided before anything is stored: a refusal leaves no credential behind.
        try session.check(OperatorAct(name, .resetPassword(credential: "")))
        let password = OperatorDirectory.generatePassword()
        let credential = try OperatorDirectory(connections: session.connections).storeCredential(operator: name, password: password)
        let appended = try session.perform(OperatorAct(name, .resetPassword(credential: credential)))
        return OperatorPasswordReceipt.make(appended, name: name, password: password)
    }
}
