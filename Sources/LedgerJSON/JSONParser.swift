/// A strict RFC 8259 parser over UTF-8 bytes that agrees with PostgreSQL's `jsonb` input:
/// same grammar, same number values, last duplicate key wins.
///
/// Recursive descent, bounded by `maxDepth`. Strings without escapes become `String`s
/// straight from the input bytes; escaped ones go through one reused scratch buffer.
struct JSONParser: ~Copyable {
    let input: UnsafeBufferPointer<UInt8>
    let options: JSONParseOptions
    var index = 0
    var depth = 0
    /// Reused for strings with escapes.
    var scratch: [UInt8] = []

    init(input: UnsafeBufferPointer<UInt8>, options: JSONParseOptions) {
        self.input = input
        self.options = options
    }

    /// Parses the whole input as one JSON text.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseValue()
        skipWhitespace()
        if index < input.count {
            throw error(.trailingData, at: index, "expected the end of the input after the JSON value, found \(describeByte(at: index))")
        }
        return value
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < input.count else { throw error(.unexpectedEndOfInput, at: index, "expected a JSON value, found the end of the input") }
        switch input[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error(.unexpectedCharacter, at: index, "expected a JSON value, found \(describeByte(at: index)) (JSON has no NaN or Infinity)")
        default:
            throw error(.unexpectedCharacter, at: index, "expected a JSON value, found \(describeByte(at: index))")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        let open = index
        try enterContainer(at: open)
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < input.count && input[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        var afterComma = false
        while true {
            skipWhitespace()
            guard index < input.count, input[index] == UInt8(ascii: "\"") else {
                let what = afterComma ? "expected a string key after ',' (trailing commas are not allowed)" : "expected a string key or '}'"
                throw unexpected(what)
            }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < input.count, input[index] == UInt8(ascii: ":") else { throw unexpected("expected ':' after an object key") }
            index += 1
            let value = try parseValue()
            if members.updateValue(value, forKey: key) != nil {
                try checkDuplicate(key, in: members, at: keyOffset)
            }
            skipWhitespace()
            guard index < input.count else { throw unexpected("expected ',' or '}' after an object member") }
            switch input[index] {
            case UInt8(ascii: ","):
                index += 1
                afterComma = true
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            default:
                throw unexpected("expected ',' or '}' after an object member")
            }
        }
    }

    /// Called when `key` replaced an existing member: fine for a byte-identical key under
    /// `.lastWins`, refused otherwise.
    private func checkDuplicate(_ key: String, in members: [String: JSONValue], at offset: Int) throws(JSONParseError) {
        // Swift's String equality is canonical equivalence, so the stored key may be
        // spelled differently; PostgreSQL would have kept both.
        if let stored = members.index(forKey: key), !members[stored].key.utf8.elementsEqual(key.utf8) {
            throw error(.equivalentKeys, at: offset, "key \(key.debugDescription) is canonically equivalent to another key of this object but spelled differently")
        }
        if options.duplicateKeys == .reject {
            throw error(.duplicateKey, at: offset, "duplicate key \(key.debugDescription)")
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer(at: index)
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < input.count && input[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if index < input.count && input[index] == UInt8(ascii: "]") && !elements.isEmpty {
                throw unexpected("expected a value after ',' (trailing commas are not allowed)")
            }
            elements.append(try parseValue())
            skipWhitespace()
            guard index < input.count else { throw unexpected("expected ',' or ']' after an array element") }
            switch input[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw unexpected("expected ',' or ']' after an array element")
            }
        }
    }

    private mutating func enterContainer(at offset: Int) throws(JSONParseError) {
        depth += 1
        if depth > options.maxDepth {
            throw error(.tooDeep, at: offset, "arrays and objects nested deeper than \(options.maxDepth) levels")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let count = word.utf8CodeUnitCount
        for i in 0..<count {
            let expected = word.utf8Start[i]
            guard index < input.count else {
                throw error(.unexpectedEndOfInput, at: index, "expected '\(word)', found the end of the input")
            }
            guard input[index] == expected else {
                throw error(.unexpectedCharacter, at: start, "expected a JSON value, found an invalid literal starting with \(describeByte(at: start))")
            }
            index += 1
        }
    }

    mutating func skipWhitespace() {
        while index < input.count {
            switch input[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}
