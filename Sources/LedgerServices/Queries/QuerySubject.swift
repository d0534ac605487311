import LedgerDomain

/// Whose data a query shows, which decides who may read it (`Reader.mayRead`).
public enum QuerySubject: Sendable, Hashable {
    /// A payer's or a project's billing: its own key, or an operator.
    case account(BillingAccount)
    /// The whole ledger (listings, the log, every account at once): operators only.
    case ledger
}
