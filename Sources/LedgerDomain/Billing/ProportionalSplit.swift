/// Splits a total between parties in proportion to their weights, so that the shares
/// add up exactly to the total (the largest remainder method).
///
/// Each party first gets `total × weight ÷ Σweights` rounded down; what is left (fewer
/// units than there are parties) goes one unit each to the largest remainders, ties to
/// the key that sorts first. With all weights zero the total is split equally the same
/// way. Computed in 128 bits, so no product can overflow.
public enum ProportionalSplit {
    public static func split(_ total: Int64, weights: [String: Int64]) -> [String: Int64] {
        precondition(total >= 0 && weights.values.allSatisfy { $0 >= 0 }, "split of a negative amount")
        let keys = weights.keys.sorted()
        guard !keys.isEmpty else { return [:] }
        var effective = weights
        var sum = weights.values.reduce(Int128(0)) { $0 + Int128($1) }
        if sum == 0 {
            for k in keys { effective[k] = 1 }
            sum = Int128(keys.count)
        }
        var shares: [String: Int64] = [:]
        var remainders: [(key: String, remainder: Int128)] = []
        var given: Int128 = 0
        for k in keys {
            let product = Int128(total) * Int128(effective[k]!)
            let share = product / sum
            shares[k] = Int64(share)
            given += share
            remainders.append((k, product % sum))
        }
        var left = Int128(total) - given
        // Stable sort: equal remainders keep the keys' order.
        for entry in remainders.enumerated().sorted(by: { a, b in
            a.element.remainder != b.element.remainder ? a.element.remainder > b.element.remainder : a.offset < b.offset
        }).map(\.element) where left > 0 {
            shares[entry.key]! += 1
            left -= 1
        }
        return shares
    }
}

/// The storage part of a bill.
public enum StoragePricing {
    /// `bytes × price ÷ 2^30`, rounded half up to a millicredit; nil when it does not fit.
    public static func amount(billedBytes: Int64, pricePerGiBMonth: Millicredits) -> Millicredits? {
        let product = Int128(billedBytes) * Int128(pricePerGiBMonth.value)
        let gib = Int128(BillingRules.bytesPerGiB)
        let rounded = (product + gib / 2) / gib
        guard rounded <= Int128(Int64.max), rounded >= Int128(Int64.min) else { return nil }
        return Millicredits(Int64(rounded))
    }
}
