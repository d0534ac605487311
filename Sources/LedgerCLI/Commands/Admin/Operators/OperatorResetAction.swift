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
        let directory = OperatorDirectory(pool: session.pool)
        let state = try directory.state(of: name)
        _ = try session.decide { try OperatorDecider.resetPassword(state, name: name, credential: "") }
        let password = OperatorDirectory.generatePassword()
        let credential = try directory.storeCredential(operator: name, password: password)
        let decision = try session.decide { try OperatorDecider.resetPassword(state, name: name, credential: credential) }
        let appended = try session.append(decision) { error in
            error.code == .wrongExpectedVersion ? AdminError(.conflict, "operator \(name) changed while the command ran; run it again") : nil
        }
        return OperatorPasswordReceipt.make(appended, name: name, password: password)
    }
}
