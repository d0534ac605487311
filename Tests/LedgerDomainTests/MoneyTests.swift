import LedgerDomain
import Testing
import TestSupport

@Suite("Millicredits (B2)", .bounded)
struct MoneyTests {
    @Test("B2: every 128-bit amount prints canonically and parses back; nothing else parses")
    func canonicalRoundTrip() {
        var random = SeededRandom(seed: 7)
        var samples: [Int128] = [0, 1, -1, 9, 10, -10, Int128(Int64.max), Int128(Int64.min), Int128.max, Int128.min,
                                 Int128.max - 1, Int128.min + 1]
        for _ in 0..<20_000 {
            let magnitude = random.int(0...37)
            let wide = Int128(bitPattern: UInt128(random.next()) << 64 | UInt128(random.next()))
            var v = wide % pow10(magnitude)
            if random.chance(0.5) { v = -v }
            samples.append(v)
        }
        for v in samples {
            let text = Millicredits(v).canonical
            #expect(Millicredits(canonical: text)?.value == v, "\(v)")
            #expect(text == String(v))
        }
    }

    @Test("B2: non-canonical spellings are refused", arguments: ["00", "+1", "-0", "1e3", "1.0", " 1", "1 ", "", "-", "01", "--1",
        "170141183460469231731687303715884105728", "-170141183460469231731687303715884105729", "١", "0x10", "1_000"])
    func refusesNonCanonical(_ text: String) {
        #expect(Millicredits(canonical: text) == nil)
    }

    @Test("arithmetic is checked: overflow is an error, never a wrap")
    func checkedArithmetic() throws {
        #expect(throws: MoneyError.self) { try Millicredits(Int128.max) + Millicredits(1) }
        #expect(throws: MoneyError.self) { try Millicredits(Int128.min) - Millicredits(1) }
        #expect(throws: MoneyError.self) { try Millicredits(Int128.max / 2 + 1) * 2 }
        #expect(throws: MoneyError.self) { try Millicredits(Int128.min).negated() }
        var random = SeededRandom(seed: 8)
        for _ in 0..<10_000 {
            let a = Int128(bitPattern: UInt128(random.next()) << 64 | UInt128(random.next())) >> Int128(random.int(0...126))
            let b = Int128(bitPattern: UInt128(random.next()) << 64 | UInt128(random.next())) >> Int128(random.int(0...126))
            let (sum, overflow) = a.addingReportingOverflow(b)
            if overflow {
                #expect(throws: MoneyError.self) { try Millicredits(a) + Millicredits(b) }
            } else {
                #expect(try (Millicredits(a) + Millicredits(b)).value == sum)
            }
        }
    }

    private func pow10(_ n: Int) -> Int128 { (0..<n).reduce(Int128(1)) { r, _ in r * 10 } }
}

@Suite("Proportional split and storage pricing (U3, U6)", .bounded)
struct SplitTests {
    @Test("shares add up exactly to the total and each is within one of its exact proportion, over generated cases")
    func splitProperties() {
        var random = SeededRandom(seed: 9)
        for _ in 0..<5_000 {
            // Up to 10^30 so that products pass 128 bits and the full-width arithmetic is exercised.
            let total = Int128(random.int(0...1_000_000_000)) * (random.chance(0.3) ? 1_000_000_000_000_000_000_000 : 1)
            var weights: [String: Int128] = [:]
            for i in 0..<random.int(1...12) {
                weights["p\(i)"] = random.chance(0.2) ? 0 : Int128(random.int(0...5_000_000_000)) * (random.chance(0.3) ? 1_000_000_000_000 : 1)
            }
            let shares = ProportionalSplit.split(total, weights: weights)
            #expect(shares.values.reduce(0, +) == total)
            #expect(Set(shares.keys) == Set(weights.keys))
            let sum = weights.values.reduce(Int128(0), +)
            for (k, share) in shares {
                // The exact proportion, rounded down, at full width: the share is it or one more.
                let (weight, divisor) = sum == 0 ? (UInt128(1), UInt128(weights.count)) : (UInt128(weights[k]!), UInt128(sum))
                let floor = divisor.dividingFullWidth(UInt128(total).multipliedFullWidth(by: weight)).quotient
                #expect(UInt128(share) == floor || UInt128(share) == floor + 1, "\(k): \(share) vs \(floor)")
            }
        }
    }

    @Test("remainders go to the largest, ties to the key that sorts first")
    func tieBreak() {
        #expect(ProportionalSplit.split(2, weights: ["b": 1, "a": 1, "c": 1]) == ["a": 1, "b": 1, "c": 0])
        #expect(ProportionalSplit.split(3, weights: ["x": 1, "y": 1, "z": 1001]) == ["x": 0, "y": 0, "z": 3])
        #expect(ProportionalSplit.split(10, weights: [:]) == [:])
    }

    @Test("storage is priced per GiB-month, rounded half up to a millicredit")
    func storagePrice() {
        let gib = BillingRules.bytesPerGiB
        #expect(StoragePricing.amount(billedBytes: Quantity(gib), pricePerGiBMonth: Millicredits(1_000))?.value == 1_000)
        #expect(StoragePricing.amount(billedBytes: Quantity(gib / 2), pricePerGiBMonth: Millicredits(3))?.value == 2)   // 1.5 → 2
        #expect(StoragePricing.amount(billedBytes: Quantity(gib / 2 - 1), pricePerGiBMonth: Millicredits(3))?.value == 1)
        // At the limits of one event the amount is exact; only past 128 bits is there none.
        #expect(StoragePricing.amount(billedBytes: Quantity(Int64.max), pricePerGiBMonth: Millicredits(Int64.max))?.value
                == (Int128(Int64.max) * Int128(Int64.max) + Int128(gib / 2)) / Int128(gib))
        #expect(StoragePricing.amount(billedBytes: Quantity(Int128.max), pricePerGiBMonth: Millicredits(Int128.max)) == nil)
    }
}
