/// The largest values one event may carry, enforced by the deciders (docs/billing.md,
/// "Limits"). They are far above any real use and chosen so that no arithmetic the folds
/// and reads do can overflow: a product of a quantity and a price fits in 64 bits, and
/// sums, kept in 128 bits (`Millicredits`, `Quantity`) and `numeric` columns, would need
/// more events than a log can hold (2^63) to come near their limit.
public enum BillingLimits {
    /// Credit, hold, capture or correction: a trillion credits.
    public static let maximumAmount = Millicredits(Int64(1_000_000_000_000_000))
    /// Price of one counted unit above the free limit: a million credits.
    public static let maximumUnitPrice = Millicredits(Int64(1_000_000_000))
    /// Price of a GiB-month of storage above the allowance: a billion credits.
    public static let maximumStoragePrice = Millicredits(Int64(1_000_000_000_000))
    /// A plan's free storage: an exabyte.
    public static let maximumAllowanceBytes: Int64 = 1_000_000_000_000_000_000

    /// One usage event: a billion counted units, or a petabyte served, received or stored.
    /// (`quantity × maximumUnitPrice` ≤ 10^18 < 2^63.)
    public static func maximumQuantity(_ meter: Meter) -> Int64 {
        meter.isCountedUnit ? 1_000_000_000 : 1_000_000_000_000_000
    }
}
