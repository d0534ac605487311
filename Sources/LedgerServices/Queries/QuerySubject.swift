import LedgerDomain

/// Whose data a query shows, which decides who may read it (`Reader.mayRead`).
public enum QuerySubject: Sendable, Hashable {
    /// A payer's or a project's billing: its own key, or an operator.
    case account(BillingAccount)
    /// One app's catalog and its users' purchases: the app's own publishable key, or an
    /// operator.
    case app(String)
    /// One organization's plan and subscriptions: its members, or an operator (the query
    /// answers nothing to a person who is not a member).
    case organization(String)
    /// The whole ledger (listings, the log, every account at once): operators only.
    case ledger
    /// The log's Merkle proofs: auditors' keys and operators.
    case proofs
    /// The log's signed checkpoints: as the proofs, or anybody when the service makes
    /// them public (`public`: LEDGER_PUBLIC_CHECKPOINTS; they reveal only the log's size).
    case checkpoints(public: Bool)

    /// Whether a reader who may not read the subject is told so (403), or answered as for
    /// a subject that does not exist (an account's existence is not revealed).
    public var refusalIsVisible: Bool {
        switch self {
        case .account, .app, .organization: return false
        case .ledger, .proofs, .checkpoints: return true
        }
    }
}
