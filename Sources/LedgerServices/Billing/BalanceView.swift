import LedgerDomain

/// B1–B4: the balance of a payer or a project as `GET …/balance` answers it, `ledger
/// admin payer|project show` prints it, the console shows it and `balance.low` watches
/// it. Built by `BalanceView.read` (BalanceView+Rules.swift), in one snapshot.
/// The balance on the pool that funds the account now is written at the top level, its
/// figures on every other pool under `other_pools`.
public struct BalanceView: Encodable, Sendable {
    public var account: AccountRef
    public var current: PoolBalance
    /// U6: the pools the account was billed to or credited on before its funding
    /// changed; with the current pool's figures they add up to its journal.
    public var otherPools: [PoolBalance]
    public var currency = "millicredits"
    public var railsAvailable = false
    public var missingRails = BillingRules.missingRails
    public var paymentAuthority = false
    public var position: Int64

    public init(account: AccountRef, current: PoolBalance, otherPools: [PoolBalance], position: Int64) {
        self.account = account
        self.current = current
        self.otherPools = otherPools
        self.position = position
    }

    /// The pool's `available`; nil for a funded project's share.
    public var available: Millicredits? { current.available }

    enum CodingKeys: String, CodingKey {
        case account, currency, position
        case otherPools = "other_pools", railsAvailable = "rails_available", missingRails = "missing_rails"
        case paymentAuthority = "payment_authority"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(account, forKey: .account)
        try c.encode(currency, forKey: .currency)
        try c.encode(otherPools, forKey: .otherPools)
        try c.encode(railsAvailable, forKey: .railsAvailable)
        try c.encode(missingRails, forKey: .missingRails)
        try c.encode(paymentAuthority, forKey: .paymentAuthority)
        try c.encode(position, forKey: .position)
        try current.encode(to: encoder)
    }
}
