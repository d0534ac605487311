/// Checks on decimal text against what PostgreSQL's `numeric_out` can print.
enum NumericText {
    enum Verdict {
        case canonical
        case notCanonical
        case outOfRange
    }

    /// `numeric_out` prints `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, never `-0…`, with at most
    /// 131072 digits before the point and 16383 after; that set is exactly what is
    /// accepted here.
    static func verdict(_ text: String) -> Verdict {
        var text = text
        return text.withUTF8 { verdict($0) }
    }

    static func verdict(_ bytes: UnsafeBufferPointer<UInt8>) -> Verdict {
        var i = 0
        let n = bytes.count
        var negative = false
        if i < n && bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        let intStart = i
        var nonzero = false
        while i < n && bytes[i] &- 48 < 10 {
            if bytes[i] != UInt8(ascii: "0") { nonzero = true }
            i += 1
        }
        let intCount = i - intStart
        guard intCount > 0 else { return .notCanonical }
        if intCount > 1 && bytes[intStart] == UInt8(ascii: "0") { return .notCanonical }
        var fracCount = 0
        if i < n && bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fracStart = i
            while i < n && bytes[i] &- 48 < 10 {
                if bytes[i] != UInt8(ascii: "0") { nonzero = true }
                i += 1
            }
            fracCount = i - fracStart
            guard fracCount > 0 else { return .notCanonical }
        }
        guard i == n else { return .notCanonical }
        if negative && !nonzero { return .notCanonical }
        if intCount > NumberLiteral.maxIntegerDigits || fracCount > NumberLiteral.maxScale { return .outOfRange }
        return .canonical
    }
}
