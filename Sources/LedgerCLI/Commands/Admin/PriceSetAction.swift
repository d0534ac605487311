import LedgerDomain
import LedgerServices

/// `ledger admin price set`: `pricing.configured` on `config-pricing`, in force (in log
/// order) for usage recorded after it; never retroactive.
struct PriceSetAction: AdminAction {
    static let words = ["price", "set"]
    static let synopsis = "--unit-price AMOUNT --storage-price-per-gib-month AMOUNT"
    static let summary = "Set the price of a counted unit above the free limit and of a GiB-month of storage above the allowance."
    static let valued: Set<String> = ["unit-price", "storage-price-per-gib-month"]

    static let stream = "config-pricing"

    let unitPrice: Millicredits
    let storagePrice: Millicredits

    init(_ options: AdminOptions) throws {
        unitPrice = try options.amount("unit-price", .nonNegative)
        storagePrice = try options.amount("storage-price-per-gib-month", .nonNegative)
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(PriceSetAct(unitPrice: unitPrice, storagePricePerGiBMonth: storagePrice)))
    }
}
