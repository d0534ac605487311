import LedgerDomain

/// A secret key for a principal, of which the log keeps only the SHA-256 and a
/// recognisable prefix; the front end makes the secret and shows it once.
public struct KeyIssueAct: LedgerAct {
    public var keyID: String
    public var principal: KeyPrincipal
    public var sha256: String
    public var prefix: String

    public init(keyID: String, principal: KeyPrincipal, sha256: String, prefix: String) {
        self.keyID = keyID
        self.principal = principal
        self.sha256 = sha256
        self.prefix = prefix
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        let state: AccountsDecider.State
        switch principal.kind {
        case .project: state = try reads.accountsState(projects: [principal.id])
        case .payer: state = try reads.accountsState(payers: [principal.id])
        case .service, .auditor: state = AccountsDecider.State()  // Named by the operator; nothing records them beforehand.
        }
        return try AccountsDecider.issueKey(keyID: keyID, principal: principal, sha256: sha256, prefix: prefix, state: state)
    }

    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        stream == AccountsDecider.keyStream(keyID)
            ? Refusal(.alreadyExists, "key \(keyID) already exists")
            : Refusal(.notFound, "\(principal.kind.rawValue) \(principal.id) does not exist")
    }
}
