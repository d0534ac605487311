/// A JSON number literal, located in a byte buffer, and its conversion to the text
/// PostgreSQL prints for it.
///
/// `jsonb` stores numbers as `numeric`: the literal goes through `numeric_in` and comes
/// back through `numeric_out`. That output never uses an exponent, keeps the scale
/// (`dscale`) the literal implies (`1.50` → `1.50`, `1.5e1` → `15`, `1E-2` → `0.01`,
/// `10e-1` → `1.0`) and has no negative zero (`-0.0` → `0.0`). Verified against
/// PostgreSQL 15 by the LedgerJSON tests.
struct NumberLiteral {
    var negative: Bool
    /// The digits before the point, and after it (possibly empty), as buffer offsets.
    var integerDigits: Range<Int>
    var fractionDigits: Range<Int>
    /// The exponent, saturated far beyond every accepted value.
    var exponent: Int

    /// `numeric` limits (PostgreSQL 15 `numeric.c`): the input exponent must stay below
    /// INT_MAX / 2 in magnitude, the display scale fits 14 bits, and the base-10000
    /// weight fits an int16, which allows 131072 decimal digits before the point.
    static let exponentLimit = 1_073_741_823
    static let maxScale = 16_383
    static let maxIntegerDigits = 131_072

    enum Problem: Error {
        case outOfRange
        case tooLong
    }

    /// The value the parser yields: `.integer` when the canonical text is a whole number
    /// without a fraction that fits `Int64` (and `preferInteger`), else `.decimal` with the
    /// canonical text.
    func value(in bytes: UnsafeBufferPointer<UInt8>, maxLength: Int, preferInteger: Bool) throws(Problem) -> JSONValue {
        guard exponent < Self.exponentLimit, exponent > -Self.exponentLimit else { throw .outOfRange }
        // The value is the run of all written digits times 10^-scale.
        let digitCount = integerDigits.count + fractionDigits.count
        let scale = fractionDigits.count - exponent
        let displayScale = max(0, scale)
        guard displayScale <= Self.maxScale else { throw .outOfRange }

        var leadingZeros = 0
        while leadingZeros < digitCount && digit(leadingZeros, in: bytes) == UInt8(ascii: "0") { leadingZeros += 1 }
        let isZero = leadingZeros == digitCount
        // Positions before `pointAt` form the integer part; it may lie beyond the written
        // digits (a positive exponent appends zeros) or before them (a fraction below 1).
        let pointAt = digitCount - scale
        let integerDigitCount = isZero ? 0 : max(0, pointAt - leadingZeros)
        guard integerDigitCount <= Self.maxIntegerDigits else { throw .outOfRange }

        let length = (negative && !isZero ? 1 : 0) + max(1, integerDigitCount) + (displayScale > 0 ? 1 + displayScale : 0)
        guard length <= maxLength else { throw .tooLong }

        if preferInteger && displayScale == 0 {
            if isZero { return .integer(0) }
            if integerDigitCount <= 19, let n = wholeNumber(in: bytes, from: pointAt - integerDigitCount, to: pointAt) {
                return .integer(n)
            }
        }
        let text = String(unsafeUninitializedCapacity: length) { out in
            var n = 0
            if negative && !isZero { out[n] = UInt8(ascii: "-"); n += 1 }
            if integerDigitCount == 0 {
                out[n] = UInt8(ascii: "0"); n += 1
            } else {
                for p in (pointAt - integerDigitCount)..<pointAt { out[n] = digit(p, in: bytes); n += 1 }
            }
            if scale > 0 {
                out[n] = UInt8(ascii: "."); n += 1
                for p in pointAt..<digitCount { out[n] = digit(p, in: bytes); n += 1 }
            }
            return n
        }
        return .decimal(text)
    }

    /// The ASCII digit at position `p` of the written digits (integer then fraction part),
    /// or "0" outside them, where a moved point pads with zeros.
    @inline(__always)
    private func digit(_ p: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        if p < 0 { return UInt8(ascii: "0") }
        if p < integerDigits.count { return bytes[integerDigits.lowerBound + p] }
        let q = p - integerDigits.count
        return q < fractionDigits.count ? bytes[fractionDigits.lowerBound + q] : UInt8(ascii: "0")
    }

    /// The digits at positions `from..<to` as an `Int64`, or nil when they overflow it.
    private func wholeNumber(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int64? {
        // Accumulated negatively so that Int64.min is reachable.
        var value: Int64 = 0
        for p in from..<to {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(Int64(digit(p, in: bytes) &- 48))
            if o1 || o2 { return nil }
            value = s
        }
        if negative { return value }
        return value == .min ? nil : -value
    }
}
