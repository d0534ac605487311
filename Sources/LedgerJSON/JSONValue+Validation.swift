extension JSONValue {
    /// `jsonb` refuses strings longer than this (`JENTRY_OFFLENMASK` in PostgreSQL).
    static let maxStringBytes = 0x0FFF_FFFF

    /// Throws unless PostgreSQL would store this value as `jsonb` and print exactly
    /// `canonicalText` for it, and `parse` with default options would read that text back.
    ///
    /// Refused: U+0000 in any string or key (PostgreSQL text cannot hold it), a `.decimal`
    /// whose text is not `numeric_out`'s own (`"1e3"`, `"01"`, `"-0"`, `"+1"`, `"NaN"`, …;
    /// the server would accept some of these but print them differently), a decimal
    /// beyond `numeric`'s range, strings over 268435455 bytes, and — the one refusal the
    /// server would not make — nesting deeper than 256 levels, which the ledger could not
    /// read back. Not checked: the 1 GB limit on a whole value.
    public func validateForJSONB() throws(JSONValidationError) {
        try validate(depth: 0)
    }

    private func validate(depth: Int) throws(JSONValidationError) {
        switch self {
        case .null, .bool, .integer:
            return
        case .decimal(let text):
            try Self.checkDecimal(text, path: JSONPath())
        case .string(let s):
            try Self.checkString(s)
        case .array(let elements):
            try Self.checkDepth(depth + 1)
            for (i, element) in elements.enumerated() {
                do { try element.validate(depth: depth + 1) } catch { throw error.prepending(.index(i)) }
            }
        case .object(let members):
            try Self.checkDepth(depth + 1)
            for (key, member) in members {
                do {
                    try Self.checkString(key)
                    try member.validate(depth: depth + 1)
                } catch {
                    throw error.prepending(.key(key))
                }
            }
        }
    }

    static func checkDepth(_ depth: Int) throws(JSONValidationError) {
        let limit = JSONParseOptions.default.maxDepth
        if depth > limit {
            throw JSONValidationError(code: .tooDeep, path: JSONPath(), reason: "arrays and objects nested deeper than \(limit) levels")
        }
    }

    private static func checkString(_ s: String) throws(JSONValidationError) {
        if s.utf8.count > maxStringBytes { throw stringTooLongError(s, path: JSONPath()) }
        // Over the contiguous bytes when possible: iterating the UTF-8 view is slower.
        let hasNUL = s.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? s.utf8.contains(0)
        if hasNUL { throw nulError(path: JSONPath()) }
    }

    static func checkDecimal(_ text: String, path: JSONPath) throws(JSONValidationError) {
        switch NumericText.verdict(text) {
        case .canonical:
            return
        case .notCanonical:
            let shown = text.utf8.count > 40 ? String(text.prefix(40)) + "…" : text
            throw JSONValidationError(code: .noncanonicalDecimal, path: path,
                                      reason: "decimal \(shown.debugDescription) is not in the form PostgreSQL prints; build it with JSONValue.decimal(fromLiteral:)")
        case .outOfRange:
            throw JSONValidationError(code: .decimalOutOfRange, path: path,
                                      reason: "decimal with \(text.utf8.count) characters is outside the range of PostgreSQL's numeric type")
        }
    }

    static func nulError(path: JSONPath) -> JSONValidationError {
        JSONValidationError(code: .nulCharacter, path: path, reason: "string contains U+0000, which PostgreSQL jsonb cannot store")
    }

    static func stringTooLongError(_ s: String, path: JSONPath) -> JSONValidationError {
        JSONValidationError(code: .stringTooLong, path: path, reason: "string of \(s.utf8.count) bytes exceeds jsonb's limit of \(maxStringBytes)")
    }
}
