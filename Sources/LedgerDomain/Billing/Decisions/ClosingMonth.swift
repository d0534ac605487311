/// A pool-month that started closing: what it owes, frozen at the closing.
public struct ClosingMonth: Sendable, Hashable {
    public var allowanceBytes: Int64
    public var storagePrice: Millicredits
    public var charges: [ProjectCharge]

    public init(allowanceBytes: Int64, storagePrice: Millicredits, charges: [ProjectCharge]) {
        self.allowanceBytes = allowanceBytes
        self.storagePrice = storagePrice
        self.charges = charges
    }
}
