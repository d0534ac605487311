import LedgerDomain
import LedgerServices

/// `ledger admin operator add`: a console principal with a role and a generated password,
/// printed once (`operator.added`; the hash goes to `console_credentials`, not the log).
struct OperatorAddAction: AdminAction {
    static let words = ["operator", "add"]
    static let synopsis = "--name NAME --role viewer|auditor|operator"
    static let summary = "Add a console operator; their password is generated and shown once."
    static let valued: Set<String> = ["name", "role"]

    let name: String
    let role: OperatorRole

    init(_ options: AdminOptions) throws {
        name = try options.text("name", maximumLength: 64)
        let text = try options.text("role", maximumLength: 20)
        guard let role = OperatorRole(rawValue: text) else {
            throw UsageError("--role must be one of \(OperatorRole.allCases.map(\.rawValue).joined(separator: ", ")), got \(text.debugDescription)")
        }
        self.role = role
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        // Decided before anything is stored: a refusal leaves no credential behind.
        try session.check(OperatorAct(name, .add(role, credential: "")))
        let password = OperatorDirectory.generatePassword()
        let credential = try OperatorDirectory(connections: session.connections).storeCredential(operator: name, password: password)
        let appended = try session.perform(OperatorAct(name, .add(role, credential: credential)))
        return OperatorPasswordReceipt.make(appended, name: name, password: password)
    }
}
