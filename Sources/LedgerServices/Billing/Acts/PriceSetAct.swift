import LedgerDomain

/// The price of a counted unit above the free limit and of a GiB-month of storage above
/// the allowance, in force (in log order) for usage recorded after it; never retroactive.
public struct PriceSetAct: LedgerAct {
    public var unitPrice: Millicredits
    public var storagePricePerGiBMonth: Millicredits

    public init(unitPrice: Millicredits, storagePricePerGiBMonth: Millicredits) {
        self.unitPrice = unitPrice
        self.storagePricePerGiBMonth = storagePricePerGiBMonth
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        try MoneyDecider.setPrices(unitPrice: unitPrice, storagePricePerGiBMonth: storagePricePerGiBMonth)
    }
}
