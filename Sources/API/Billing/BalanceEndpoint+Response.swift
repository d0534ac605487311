import LedgerDomain

/// The shapes `GET …/balance` answers with.
extension BalanceEndpoint {
    struct Posted: Codable, Sendable { var posted: Millicredits }
    struct PostedHeld: Codable, Sendable { var posted: Millicredits; var held: Millicredits }
    struct Sources: Codable, Sendable { var plan, purchase, grant, correction: Posted }
    struct Consumption: Codable, Sendable { var usage, hold: PostedHeld }

    /// An account's balance on one pool.
    struct PoolBalance: Codable, Sendable {
        var payer: AccountRef
        /// `pool`: the whole pool (a payer, a self-paying project); `share`: a funded project's own part.
        var scope: String
        var sources: Sources?
        var consumption: Consumption
        var posted: Millicredits
        var held: Millicredits
        var available: Millicredits?
        var reserveVisible: Bool

        enum CodingKeys: String, CodingKey {
            case payer, scope, sources, consumption, posted, held, available
            case reserveVisible = "reserve_visible"
        }
    }

    /// The balance on the pool that funds the account now, written at the top level, and
    /// its figures on every other pool.
    struct Response: Encodable, Sendable {
        var account: AccountRef
        var current: PoolBalance
        /// U6: the pools the account was billed to or credited on before its funding
        /// changed; with the current pool's figures they add up to its journal.
        var otherPools: [PoolBalance]
        var currency = "millicredits"
        var railsAvailable = false
        var missingRails = BillingRules.missingRails
        var paymentAuthority = false
        var position: Int64

        init(account: AccountRef, current: PoolBalance, otherPools: [PoolBalance], position: Int64) {
            self.account = account
            self.current = current
            self.otherPools = otherPools
            self.position = position
        }

        /// The pool's `available`; nil for a funded project's share.
        var available: Millicredits? { current.available }

        enum CodingKeys: String, CodingKey {
            case account, currency, position
            case otherPools = "other_pools", railsAvailable = "rails_available", missingRails = "missing_rails"
            case paymentAuthority = "payment_authority"
        }

        func encode(to encoder: any Encoder) throws {
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
}
