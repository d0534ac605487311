import LedgerDomain
import ProjectionEngine
import Projections

/// The corrections posted (J3), across every account or one payer's or project's, oldest
/// first, with who posted each, when and why: what `ledger audit corrections` prints and
/// the console's corrections page and CSV show, from one definition of the filter.
public struct CorrectionsQuery: LedgerQuery {
    /// Only this account's; nil: every account's.
    public var account: Pool?
    /// `operator:<name>` as recorded, or the bare operator name.
    public var actor: String?
    /// Recorded at or after.
    public var since: Timestamp?
    /// Recorded before.
    public var until: Timestamp?

    public init(account: Pool? = nil, actor: String? = nil, since: Timestamp? = nil, until: Timestamp? = nil) {
        self.account = account
        self.actor = actor
        self.since = since
        self.until = until
    }

    public var projections: [any Projection] { [BillingProjection()] }
    /// An audit of operators' acts (names and reasons): operators only, even for one account.
    public var subject: QuerySubject { .ledger }

    /// Nil when the account named does not exist: a typo is told apart from an account
    /// without corrections.
    public func read(_ reads: QueryReads) throws -> [CorrectionRecord]? {
        if let account {
            let named: BillingAccount
            switch account {
            case .payer(let id): named = .payer(id)
            case .project(let id): named = .project(id)
            }
            guard try reads.billing.snapshot(now: reads.now, { try $0.exists(named) }) else { return nil }
        }
        return try reads.billing.corrections(CorrectionFilter(account: account?.description, actor: actor, since: since, until: until))
    }
}
