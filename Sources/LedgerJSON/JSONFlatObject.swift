/// A JSON object of plain members read straight from its UTF-8 text, without building a
/// `JSONValue` tree: the fast path of the few event types a replay folds by the million
/// (`JSONFastDecodable.init?(fastJSONText:)`).
///
/// It takes only the ordinary shape and says nil to anything else, never an error: an
/// object with the given keys, once each, whose values are strings without escapes or
/// control characters, integers written plainly (`-`, digits, no leading zero, no
/// fraction or exponent, at most 18 digits, not `-0`), `true`, `false` or `null`.
/// Everything it takes `JSONValue.parse` reads as the same strings, `.integer`s, `.bool`s
/// and `.null`; whatever it refuses the caller hands to the parser, which decides and
/// names every error.
public enum JSONFlatObject {
    /// A member's value as the fast path takes it.
    public enum Member: Sendable, Equatable {
        case string(String)
        case integer(Int64)
        case bool(Bool)
        case null
    }

    /// The values of `keys`, in the order of `keys`, when `text` is one object with
    /// exactly those keys (in any order) and plain values; nil otherwise.
    public static func members(of text: String, keys: [StaticString]) -> [Member]? {
        members(of: text, keys: keys, required: keys.count)?.map { $0! }
    }

    /// The values of `keys`, in the order of `keys` (nil for a key the object does not
    /// have), when `text` is one object with the first `required` of the keys, any of the
    /// others, each at most once, nothing else, and plain values; nil otherwise.
    public static func members(of text: String, keys: [StaticString], required: Int) -> [Member?]? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            return reader.object(keys: keys, required: required)
        }
    }

    /// The same, from a parsed object: nil unless `value` is an object with the first
    /// `required` keys, any of the others, nothing else, and only plain values.
    public static func members(of value: JSONValue, keys: [StaticString], required: Int) -> [Member?]? {
        guard case .object(let object) = value, object.count <= keys.count else { return nil }
        var found = [Member?](repeating: nil, count: keys.count)
        var matched = 0
        for (i, key) in keys.enumerated() {
            guard let member = object[key.description] else {
                if i < required { return nil }
                continue
            }
            switch member {
            case .string(let s): found[i] = .string(s)
            case .integer(let n): found[i] = .integer(n)
            case .bool(let b): found[i] = .bool(b)
            case .null: found[i] = .null
            case .decimal, .array, .object: return nil
            }
            matched += 1
        }
        // A key it does not name: left to `Codable`.
        return matched == object.count ? found : nil
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func object(keys: [StaticString], required: Int) -> [Member?]? {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var found = [Member?](repeating: nil, count: keys.count)
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    guard let key = quoted(), let at = slot(of: key, in: keys), found[at] == nil else { return nil }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipWhitespace()
                    guard let value = value() else { return nil }
                    found[at] = value
                    skipWhitespace()
                    if take(UInt8(ascii: ",")) {
                        skipWhitespace()
                        continue
                    }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            skipWhitespace()
            guard index == bytes.count, !found[..<required].contains(where: { $0 == nil }) else { return nil }
            return found
        }

        private mutating func value() -> Member? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard let range = quoted() else { return nil }
                return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return integer().map(Member.integer)
            }
        }

        /// `word` at the reading point, taken.
        private mutating func literal(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard bytes.count - index >= length else { return false }
            for k in 0..<length where word.utf8Start[k] != bytes[index + k] { return false }
            index += length
            return true
        }

        /// The bytes between the quotes of a string without escapes or control characters.
        private mutating func quoted() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                let b = bytes[index]
                if b == UInt8(ascii: "\"") {
                    index += 1
                    return start..<(index - 1)
                }
                // The text is a Swift string, so bytes from 0x80 are valid UTF-8 already.
                if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
                index += 1
            }
            return nil
        }

        private mutating func integer() -> Int64? {
            let negative = take(UInt8(ascii: "-"))
            let start = index
            while index < bytes.count, bytes[index] &- 48 < 10 { index += 1 }
            let digits = index - start
            guard digits > 0, digits <= 18, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else { return nil }
            if index < bytes.count {
                let next = bytes[index]
                // A fraction or an exponent: the parser decides what the number is.
                if next == UInt8(ascii: ".") || next | 0x20 == UInt8(ascii: "e") { return nil }
            }
            var value: Int64 = 0
            for i in start..<index { value = value &* 10 &+ Int64(bytes[i] &- 48) }
            if negative && value == 0 { return nil }
            return negative ? -value : value
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private func slot(of key: Range<Int>, in keys: [StaticString]) -> Int? {
            let length = key.count
            candidates: for (i, candidate) in keys.enumerated() where candidate.utf8CodeUnitCount == length {
                let expected = candidate.utf8Start
                for k in 0..<length where expected[k] != bytes[key.lowerBound + k] { continue candidates }
                return i
            }
            return nil
        }
    }
}
