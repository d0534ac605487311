import LedgerDomain
import Testing
import TestSupport

/// U4 as the domain decides it (the fold calls `UnitPricing`; this is
/// its fast test, with no database): in one pool's month, the counted units take the free
/// limit of 10,000 first, in log order, and the rest is billed at the unit price.
@Suite("U4: unit pricing", .bounded)
struct UnitPricingTests {
    @Test("U4: over 2,000 generated months of recordings, free units total min(units, 10,000), each recording is split exactly, amounts are billed × price")
    func generatedMonths() throws {
        try Property.check("unit pricing", count: 2_000) { rng, seed in
            let price = Millicredits(Int64(rng.int(0...5_000)))
            var freeUsed: Int64 = 0
            var total: Int64 = 0, free: Int64 = 0, billed: Int64 = 0
            var amount = Millicredits.zero
            for _ in 0..<rng.int(1...30) {
                let quantity = Int64(rng.pick([0, 1, rng.int(1...500), rng.int(1...20_000), 10_000]))
                let priced = try UnitPricing.price(quantity: quantity, freeUsed: freeUsed, unitPrice: price)
                #expect(priced.free >= 0 && priced.billed >= 0 && priced.free + priced.billed == quantity, "seed \(seed.hex)")
                #expect(priced.amount == (try price * priced.billed), "seed \(seed.hex)")
                // The limit is taken first: nothing is billed while some of it is left.
                #expect(priced.billed == 0 || freeUsed + priced.free == BillingRules.freeUnitsPerMonth, "seed \(seed.hex)")
                freeUsed += priced.free
                total += quantity; free += priced.free; billed += priced.billed
                amount = try amount + priced.amount
            }
            // The month's totals, written out from the rule: whatever the order and the split.
            #expect(free == min(total, BillingRules.freeUnitsPerMonth), "seed \(seed.hex)")
            #expect(billed == max(0, total - BillingRules.freeUnitsPerMonth), "seed \(seed.hex)")
            #expect(amount == (try price * billed), "seed \(seed.hex)")
        }
    }

    @Test("U4: the limit's edges, and an amount past the range of Int128 millicredits is an error, never a wrap")
    func edges() throws {
        #expect(try UnitPricing.price(quantity: 10_000, freeUsed: 0, unitPrice: Millicredits(7)) == .init(free: 10_000, billed: 0, amount: .zero))
        #expect(try UnitPricing.price(quantity: 1, freeUsed: 10_000, unitPrice: Millicredits(7)) == .init(free: 0, billed: 1, amount: Millicredits(7)))
        #expect(try UnitPricing.price(quantity: 3, freeUsed: 9_999, unitPrice: Millicredits(7)) == .init(free: 1, billed: 2, amount: Millicredits(14)))
        #expect(throws: MoneyError.self) {
            try UnitPricing.price(quantity: Int64.max, freeUsed: 10_000, unitPrice: Millicredits(Int128.max / 2))
        }
    }
}
