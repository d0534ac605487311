/// Splits a total between parties in proportion to their weights, so that the shares
/// add up exactly to the total (the largest remainder method).
///
/// Each party first gets `total × weight ÷ Σweights` rounded down; what is left (fewer
/// units than there are parties) goes one unit each to the largest remainders, ties to
/// the key that sorts first. With all weights zero the total is split equally the same
/// way. Products are taken at full width (256 bits), so no input can overflow.
public enum ProportionalSplit {
    public static func split(_ total: Int128, weights: [String: Int128]) -> [String: Int128] {
        precondition(total >= 0 && weights.values.allSatisfy { $0 >= 0 }, "split of a negative amount")
        let keys = weights.keys.sorted()
        guard !keys.isEmpty else { return [:] }
        var effective = weights.mapValues { UInt128($0) }
        var sum = effective.values.reduce(UInt128(0)) { $0 + $1 }
        if sum == 0 {
            for k in keys { effective[k] = 1 }
            sum = UInt128(keys.count)
        }
        let whole = UInt128(total)
        var shares: [String: UInt128] = [:]
        var remainders: [(key: String, remainder: UInt128)] = []
        var given: UInt128 = 0
        for k in keys {
            // A share is at most the total, so the quotient always fits.
            let (share, remainder) = sum.dividingFullWidth(whole.multipliedFullWidth(by: effective[k]!))
            shares[k] = share
            given += share
            remainders.append((k, remainder))
        }
        var left = whole - given
        // Stable sort: equal remainders keep the keys' order.
        for entry in remainders.enumerated().sorted(by: { a, b in
            a.element.remainder != b.element.remainder ? a.element.remainder > b.element.remainder : a.offset < b.offset
        }).map(\.element) where left > 0 {
            shares[entry.key]! += 1
            left -= 1
        }
        return shares.mapValues { Int128($0) }
    }
}

/// The storage part of a bill.
public enum StoragePricing {
    /// `bytes × price ÷ 2^30`, rounded half up to a millicredit; nil when it does not fit
    /// in 128 bits (it cannot, for values within `BillingLimits`).
    public static func amount(billedBytes: Quantity, pricePerGiBMonth: Millicredits) -> Millicredits? {
        guard billedBytes.value >= 0, pricePerGiBMonth.value >= 0 else { return nil }
        let gib = UInt128(BillingRules.bytesPerGiB)
        let product = UInt128(billedBytes.value).multipliedFullWidth(by: UInt128(pricePerGiBMonth.value))
        // + gib/2 for rounding, carried into the high half when the low half overflows.
        let (low, carry) = product.low.addingReportingOverflow(gib / 2)
        let high = product.high + (carry ? 1 : 0)
        guard high < gib else { return nil }
        let (quotient, _) = gib.dividingFullWidth((high: high, low: low))
        guard quotient <= UInt128(Int128.max) else { return nil }
        return Millicredits(Int128(quotient))
    }
}
