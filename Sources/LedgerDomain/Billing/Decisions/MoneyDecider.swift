/// Decides what moves money outside usage: credits (J4: only operators and rails, never
/// the public HTTP surface), corrections (J3) and prices.
public enum MoneyDecider {
    public static func credit(pool: Pool, source: CreditSource, amount: Millicredits, description: String,
                              state: AccountsDecider.State) throws(Refusal) -> Decision {
        try AccountsDecider.requireKnownPool(pool, state)
        try checkAmount(amount, positive: true, what: "a credit")
        let event = CreditPosted(pool: pool, source: source, amount: amount, description: description)
        return Decision(PendingEvent(event, on: pool.ownerStream), expecting: [pool.ownerStream: .streamExists])
    }

    /// J3: a new signed entry that names the original, which stays unchanged; on the stream
    /// of the pool the original moved, with `corrects_position` the original's position.
    ///
    /// A correction restates what the entry should have moved: the entry and all its
    /// corrections together stay between zero and the entry's own amount. So they never
    /// reverse more than the entry (a 1,000 credit is corrected by −1,000 at most), and
    /// never add to it (more credit is a grant, a larger charge a charge of its own).
    /// `streamVersion` is the pool stream's version when `entry` was read: the append
    /// expects it, so that two corrections decided at once cannot both pass the bound.
    public static func correct(_ entry: JournalEntryRef?, id: JournalEntryID, amount: Millicredits, reason: String,
                               streamVersion: Int64? = nil) throws(Refusal) -> Decision {
        guard let entry else { throw Refusal(.notFound, "journal entry \(id) does not exist") }
        try checkAmount(amount, positive: false, what: "a correction")
        let net = entry.amount.value + entry.corrected.value + amount.value
        let bounds = entry.amount.value >= 0 ? 0...entry.amount.value : entry.amount.value...0
        guard bounds.contains(net) else {
            let now = entry.amount.value + entry.corrected.value
            throw Refusal(.correctionExceedsEntry,
                "\(id) moved \(entry.amount) and its corrections so far \(entry.corrected) (net \(now)); a correction of \(amount) would make it \(net), outside 0 to \(entry.amount): a correction may take back at most what is left of the entry, and more credit is a grant")
        }
        let event = EntryCorrected(entryID: entry.id.description, amount: amount, reason: reason)
        let expected: [String: ExpectedVersion] = streamVersion.map { [entry.pool.ownerStream: .exactly($0)] } ?? [:]
        return Decision(PendingEvent(event, on: entry.pool.ownerStream, correctsPosition: entry.id.position), expecting: expected)
    }

    /// Prices are in force, in log order, for usage recorded after them; never retroactive.
    public static func setPrices(unitPrice: Millicredits, storagePricePerGiBMonth: Millicredits) throws(Refusal) -> Decision {
        guard (Millicredits.zero...BillingLimits.maximumUnitPrice).contains(unitPrice) else {
            throw Refusal(.outOfRange, "the unit price is 0 to \(BillingLimits.maximumUnitPrice) millicredits, got \(unitPrice)")
        }
        guard (Millicredits.zero...BillingLimits.maximumStoragePrice).contains(storagePricePerGiBMonth) else {
            throw Refusal(.outOfRange,
                "the storage price is 0 to \(BillingLimits.maximumStoragePrice) millicredits per GiB-month, got \(storagePricePerGiBMonth)")
        }
        return Decision(PendingEvent(PricingConfigured(unitPrice: unitPrice, storagePricePerGiBMonth: storagePricePerGiBMonth),
                                     on: "config-pricing"))
    }

    /// 1 to `maximumAmount` (or its negation, for a correction), never zero.
    static func checkAmount(_ amount: Millicredits, positive: Bool, what: String) throws(Refusal) {
        let limit = BillingLimits.maximumAmount
        let allowed = positive ? amount.value > 0 && amount <= limit
                               : amount.value != 0 && amount.value <= limit.value && amount.value >= -limit.value
        guard allowed else {
            let range = positive ? "1 to \(limit)" : "-\(limit) to \(limit), not 0,"
            throw Refusal(.outOfRange, "\(what) is \(range) millicredits, got \(amount)")
        }
    }
}
