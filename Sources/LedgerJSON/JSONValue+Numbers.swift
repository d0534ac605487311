extension JSONValue {
    /// The `.decimal` for a JSON number literal, its text normalised to what PostgreSQL's
    /// `numeric_out` prints for it: `"1.50"` → `1.50`, `"1e3"` → `1000`, `"1E-2"` → `0.01`,
    /// `"-0.0"` → `0.0`, `"1e-7"` → `0.0000001`.
    ///
    /// Always `.decimal`, even for whole numbers (`.decimal("1000")` prints exactly as
    /// `.integer(1000)`); the parser prefers `.integer`, see `number(fromLiteral:)`.
    /// Throws `invalid_number` unless `literal` is exactly one RFC 8259 number (no
    /// whitespace), and `number_out_of_range` beyond `numeric`'s range.
    public static func decimal(fromLiteral literal: some StringProtocol) throws(JSONParseError) -> JSONValue {
        try number(literal, preferInteger: false)
    }

    /// The value `parse` yields for a JSON number literal: `.integer` when it is a whole
    /// number written without fraction digits that fits `Int64` (`"1e3"` → `.integer(1000)`),
    /// else as `decimal(fromLiteral:)`. No limit on exponent growth applies.
    public static func number(fromLiteral literal: some StringProtocol) throws(JSONParseError) -> JSONValue {
        try number(literal, preferInteger: true)
    }

    private static func number(_ literal: some StringProtocol, preferInteger: Bool) throws(JSONParseError) -> JSONValue {
        var text = String(literal)
        return try text.withUTF8 { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                var parser = JSONParser(input: buffer, options: .unboundedNumbers)
                guard !buffer.isEmpty, buffer[0] == UInt8(ascii: "-") || buffer[0] &- 48 < 10 else {
                    throw parser.error(.invalidNumber, at: 0, buffer.isEmpty ? "expected a number, found nothing" : "expected a number, found \(parser.describeByte(at: 0))")
                }
                let literal = try parser.scanNumber()
                guard parser.index == buffer.count else {
                    throw parser.error(.invalidNumber, at: parser.index, "expected the end of the number, found \(parser.describeByte(at: parser.index))")
                }
                do {
                    return try literal.value(in: buffer, maxLength: .max, preferInteger: preferInteger)
                } catch {
                    throw parser.error(.numberOutOfRange, at: 0, "number is outside the range of PostgreSQL's numeric type")
                }
            }
        }.get()
    }

    /// The text of a number value as `jsonb` prints it, or nil for other values.
    public var numberText: String? {
        switch self {
        case .integer(let n): return String(n)
        case .decimal(let text): return text
        default: return nil
        }
    }

    /// The text of a `.decimal`, or nil for other values (an `.integer` included).
    public var decimalText: String? {
        if case .decimal(let text) = self { return text }
        return nil
    }
}
