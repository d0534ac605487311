import LedgerDomain
import Testing
import TestSupport

@Suite("Millicredits (B2)")
struct MoneyTests {
    @Test("B2: every Int64 prints canonically and parses back; nothing else parses")
    func canonicalRoundTrip() {
        var random = SeededRandom(seed: 7)
        var samples: [Int64] = [0, 1, -1, 9, 10, -10, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        for _ in 0..<20_000 {
            let magnitude = random.int(0...18)
            var v = Int64(bitPattern: random.next()) % Int64(pow10(magnitude))
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
        "9223372036854775808", "-9223372036854775809", "١", "0x10", "1_000"])
    func refusesNonCanonical(_ text: String) {
        #expect(Millicredits(canonical: text) == nil)
    }

    @Test("arithmetic is checked: overflow is an error, never a wrap")
    func checkedArithmetic() throws {
        #expect(throws: MoneyError.self) { try Millicredits(.max) + Millicredits(1) }
        #expect(throws: MoneyError.self) { try Millicredits(.min) - Millicredits(1) }
        #expect(throws: MoneyError.self) { try Millicredits(.max / 2 + 1) * 2 }
        #expect(throws: MoneyError.self) { try Millicredits(.min).negated() }
        var random = SeededRandom(seed: 8)
        for _ in 0..<10_000 {
            let a = Int64(bitPattern: random.next()) >> Int64(random.int(0...62))
            let b = Int64(bitPattern: random.next()) >> Int64(random.int(0...62))
            let (sum, overflow) = a.addingReportingOverflow(b)
            if overflow {
                #expect(throws: MoneyError.self) { try Millicredits(a) + Millicredits(b) }
            } else {
                #expect(try (Millicredits(a) + Millicredits(b)).value == sum)
            }
        }
    }

    private func pow10(_ n: Int) -> Int64 { (0..<n).reduce(Int64(1)) { r, _ in r * 10 } }
}

@Suite("Proportional split and storage pricing (U3, U6)")
struct SplitTests {
    @Test("shares add up exactly to the total and each is within one of its exact proportion, over generated cases")
    func splitProperties() {
        var random = SeededRandom(seed: 9)
        for _ in 0..<5_000 {
            let total = Int64(random.int(0...1_000_000_000))
            var weights: [String: Int64] = [:]
            for i in 0..<random.int(1...12) { weights["p\(i)"] = random.chance(0.2) ? 0 : Int64(random.int(0...5_000_000_000)) }
            let shares = ProportionalSplit.split(total, weights: weights)
            #expect(shares.values.reduce(0, +) == total)
            #expect(Set(shares.keys) == Set(weights.keys))
            let sum = weights.values.reduce(Int128(0)) { $0 + Int128($1) }
            for (k, share) in shares {
                let exact = sum == 0 ? Double(total) / Double(weights.count) : Double(total) * Double(weights[k]!) / Double(sum)
                #expect(abs(Double(share) - exact) < 1.000001, "\(k): \(share) vs \(exact)")
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
        #expect(StoragePricing.amount(billedBytes: gib, pricePerGiBMonth: Millicredits(1_000))?.value == 1_000)
        #expect(StoragePricing.amount(billedBytes: gib / 2, pricePerGiBMonth: Millicredits(3))?.value == 2)   // 1.5 → 2
        #expect(StoragePricing.amount(billedBytes: gib / 2 - 1, pricePerGiBMonth: Millicredits(3))?.value == 1)
        #expect(StoragePricing.amount(billedBytes: Int64.max, pricePerGiBMonth: Millicredits(Int64.max)) == nil)
    }
}
