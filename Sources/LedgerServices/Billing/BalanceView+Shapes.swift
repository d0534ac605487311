import LedgerDomain

/// The parts of a balance view.
extension BalanceView {
    public struct Posted: Codable, Sendable { public var posted: Millicredits }
    public struct PostedHeld: Codable, Sendable { public var posted: Millicredits; public var held: Millicredits }
    public struct Sources: Codable, Sendable { public var plan, purchase, grant, correction: Posted }
    public struct Consumption: Codable, Sendable { public var usage, hold: PostedHeld }

    /// An account's balance on one pool.
    public struct PoolBalance: Codable, Sendable {
        public var payer: AccountRef
        /// `pool`: the whole pool (a payer, a self-paying project); `share`: a funded project's own part.
        public var scope: String
        public var sources: Sources?
        public var consumption: Consumption
        public var posted: Millicredits
        public var held: Millicredits
        public var available: Millicredits?
        public var reserveVisible: Bool

        enum CodingKeys: String, CodingKey {
            case payer, scope, sources, consumption, posted, held, available
            case reserveVisible = "reserve_visible"
        }
    }
}
