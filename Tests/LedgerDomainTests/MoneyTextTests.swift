import Foundation
import LedgerDomain
import Testing
import TestSupport

/// Amounts and byte counts as the console and the command line show them beside the raw
/// values: checked against the raw values they came from, never against a second formatter.
@Suite("Money and bytes as people read them")
struct MoneyTextTests {
    @Test("credits: thousands separators, only the decimals there are, the sign, one credit")
    func examples() {
        #expect(Millicredits(1_212_230).creditsText == "1,212.23 credits")
        #expect(Millicredits(1_180_213).creditsText == "1,180.213 credits")
        #expect(Millicredits(1_000_000).creditsText == "1,000 credits")
        #expect(Millicredits(-250_000).creditsText == "-250 credits")
        #expect(Millicredits(1_000).creditsText == "1 credit")
        #expect(Millicredits(0).creditsText == "0 credits")
        #expect(Millicredits(5).creditsText == "0.005 credits")
    }

    @Test("credits: the text read back is the amount, over generated amounts of every size")
    func roundTrip() {
        var random = SeededRandom(seed: 20_261_206)
        for _ in 0..<5_000 {
            let digits = Int(random.next() % 18) + 1
            var value = Int128(random.next() % UInt64(pow10(digits)))
            if random.next() % 2 == 0 { value = -value }
            let text = Millicredits(value).creditsText
            // Read back apart: strip the unit and the separators, split at the point.
            let number = text.replacingOccurrences(of: " credits", with: "").replacingOccurrences(of: " credit", with: "")
                .replacingOccurrences(of: ",", with: "")
            let negative = number.hasPrefix("-")
            let parts = number.drop { $0 == "-" }.split(separator: ".", omittingEmptySubsequences: false)
            var fraction = parts.count > 1 ? String(parts[1]) : ""
            #expect(fraction.count <= 3 && !fraction.hasSuffix("0"), "\(text)")
            while fraction.count < 3 { fraction += "0" }
            let magnitude = Int128(String(parts[0]))! * 1_000 + Int128(fraction)!
            #expect((negative ? -magnitude : magnitude) == value, "\(value) shown as \(text)")
            let groups = String(parts[0]).isEmpty ? [] : text.drop { $0 == "-" }.split(separator: ".")[0].split(separator: " ")[0].split(separator: ",")
            #expect(groups.dropFirst().allSatisfy { $0.count == 3 } && (groups.first?.count ?? 1) <= 3, "\(text)")
        }
    }

    @Test("bytes: binary units as storage is priced, one decimal where there is one")
    func bytes() {
        #expect(Quantity(943_718_400).bytesText == "900 MiB")
        #expect(Quantity(1_610_612_736).bytesText == "1.5 GiB")
        #expect(Quantity(1_000).bytesText == "1,000 bytes")
        #expect(Quantity(1).bytesText == "1 byte")
        #expect(Quantity(1_024).bytesText == "1 KiB")
        #expect(Quantity(0).bytesText == "0 bytes")
        #expect(Quantity(1_180_213).groupedText == "1,180,213")
    }

    func pow10(_ n: Int) -> Int { (0..<n).reduce(1) { r, _ in r &* 10 } }
}
