import LedgerDomain
import ProjectionEngine
import Projections

/// The secret keys by id, whom each speaks for and its printable prefix (`ledger admin key
/// list`), all or one principal's: never a key or its hash, which no command can print.
public struct KeyListQuery: LedgerQuery {
    /// Whose keys; nil: every key.
    public var principal: KeyPrincipal?

    public init(of principal: KeyPrincipal? = nil) { self.principal = principal }

    public var projections: [any Projection] { [BillingProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [BillingDirectory.Key]? {
        try reads.billing.keys(of: principal)
    }
}
