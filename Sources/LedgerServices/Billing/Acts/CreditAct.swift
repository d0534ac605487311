import LedgerDomain

/// J4: credit enters through operators and rails only: `MoneyDecider.credit` on the pool
/// the billing projection knows.
public struct CreditAct: LedgerAct {
    public var pool: Pool
    public var source: CreditSource
    public var amount: Millicredits
    public var description: String

    public init(pool: Pool, source: CreditSource, amount: Millicredits, description: String) {
        self.pool = pool
        self.source = source
        self.amount = amount
        self.description = description
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        try MoneyDecider.credit(pool: pool, source: source, amount: amount, description: description,
                                state: try reads.accountsState(pool))
    }
}
