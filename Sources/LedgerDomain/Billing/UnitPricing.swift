/// U4, decided here rather than in the fold that applies it: the units a project records
/// (API requests, billed stream events, webhook delivery attempts) take what is left of its
/// pool's free limit for the month (`BillingRules.freeUnitsPerMonth`, one limit for the three
/// together), in log order, and the rest is billed at the unit price in force. The storage
/// half of the month's price is `MonthCharges`.
public enum UnitPricing {
    /// How one recording of `quantity` units is priced.
    public struct Priced: Sendable, Hashable {
        /// Units the free limit covered.
        public var free: Int64
        /// Units billed, `quantity - free`.
        public var billed: Int64
        /// `billed` at the unit price.
        public var amount: Millicredits

        public init(free: Int64, billed: Int64, amount: Millicredits) {
            self.free = free
            self.billed = billed
            self.amount = amount
        }
    }

    /// `quantity` units recorded when the pool's month has used `freeUsed` of its free
    /// limit, at `unitPrice` millicredits a unit. Overflow is an error, never a wrap.
    public static func price(quantity: Int64, freeUsed: Int64, unitPrice: Millicredits) throws(MoneyError) -> Priced {
        let left = max(0, BillingRules.freeUnitsPerMonth - max(0, freeUsed))
        let free = min(max(0, quantity), left)
        let billed = max(0, quantity) - free
        return Priced(free: free, billed: billed, amount: try unitPrice * billed)
    }
}
