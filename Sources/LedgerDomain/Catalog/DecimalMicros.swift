/// Prices as operators write them (`4.99`) and as the catalog keeps them (micros, 1/1,000,000
/// of the currency unit). Parsed digit by digit into an integer: a price never passes
/// through a floating-point type, so `4.99` is 4 990 000 exactly, not 4 989 999.
public enum DecimalMicros {
    /// Digits after the point that a micro can still tell apart.
    public static let fractionDigits = 6

    /// The micros of plain decimal text: digits (no leading zeros), optionally a point and
    /// 1 to 6 digits. No sign, exponent, spaces or group separators; nil when the text is
    /// anything else or does not fit in `Int64` micros.
    public static func parse(_ text: String) -> Int64? {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 2, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, parts.count <= 2, whole.allSatisfy(isDigit) else { return nil }
        // "007" is more likely a typo than a price; "0.99" is fine.
        guard whole.count == 1 || whole.first != UInt8(ascii: "0") else { return nil }
        let fraction: [UInt8] = parts.count == 2 ? Array(parts[1]) : []
        guard parts.count == 1 || (1...fractionDigits).contains(fraction.count), fraction.allSatisfy(isDigit) else { return nil }
        let padded = fraction + Array(repeating: UInt8(ascii: "0"), count: fractionDigits - fraction.count)
        var micros: Int64 = 0
        for digit in Array(whole) + padded {
            let (shifted, overflow) = micros.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            micros = sum
        }
        return micros
    }

    /// The shortest text `parse` reads back as `micros` (not negative): `4990000` is `4.99`.
    public static func format(_ micros: Int64) -> String {
        precondition(micros >= 0, "prices are not negative")
        let whole = micros / 1_000_000, fraction = micros % 1_000_000
        guard fraction != 0 else { return String(whole) }
        var digits = String(fraction)
        digits = String(repeating: "0", count: fractionDigits - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    private static func isDigit(_ c: UInt8) -> Bool { (48...57).contains(c) }
}
