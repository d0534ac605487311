import LedgerJSON

/// Bodies a hostile or broken client might send, derived from a valid one: for the
/// fuzz-style property tests of the request decoders.
///
/// Two levels. `mutate` changes the JSON value (a member replaced by a value of another
/// type or an edge value, dropped, added, an array emptied or repeated), so most cases
/// still parse and reach the decoder and the decider behind it. `mangle` changes the
/// bytes of the written text (a byte flipped, inserted or cut, the text truncated, a key
/// repeated, nesting past any limit), so the parser itself is tried.
public enum JSONFuzzer {
    /// `valid` after one to three value-level mutations.
    public static func mutate(_ valid: JSONValue, _ rng: inout SeededRandom) -> JSONValue {
        var value = valid
        for _ in 0..<rng.int(1...3) {
            let paths = members(of: value, at: [])
            guard let (path, member) = paths.isEmpty ? nil : rng.pick(paths) else { break }
            value = replacing(value, at: path, with: mutation(of: member, &rng))
        }
        return value
    }

    /// The written text of `valid`, with one byte-level mutation.
    public static func mangle(_ valid: JSONValue, _ rng: inout SeededRandom) -> [UInt8] {
        var bytes = valid.compactBytes()
        guard !bytes.isEmpty else { return bytes }
        let at = rng.int(0...(bytes.count - 1))
        switch rng.int(0...8) {
        case 0: bytes[at] ^= UInt8(1 << rng.int(0...7))
        case 1: bytes.insert(rng.pick(oddBytes), at: at)
        case 2: bytes.remove(at: at)
        case 3: bytes = Array(bytes.prefix(at))
        case 4:
            // A repeated key: the first member of the first object, written again.
            if let open = bytes.firstIndex(of: UInt8(ascii: "{")), case .object(let members) = valid, let key = members.keys.sorted().first {
                let copy = Array(#""\#(key)":\#(members[key]!.compactText()),"#.utf8)
                bytes.insert(contentsOf: copy, at: open + 1)
            }
        case 5: bytes = Array(repeating: UInt8(ascii: "["), count: rng.int(65...5_000)) + bytes
        case 6: bytes += Array(" \u{0} trailing".utf8.prefix(rng.int(1...11)))
        case 7: bytes.insert(contentsOf: Array("\u{FEFF}".utf8), at: 0)
        default:
            // A stretch of the text written twice.
            let end = min(bytes.count, at + rng.int(1...40))
            bytes.insert(contentsOf: bytes[at..<end], at: end)
        }
        return bytes
    }

    /// Bytes that break JSON or UTF-8: NUL, controls, a lone continuation byte, bytes never
    /// valid in UTF-8, structural characters, a backslash.
    static let oddBytes: [UInt8] = [0x00, 0x01, 0x0A, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xF5, 0xFF, 0x22, 0x5C, 0x2C, 0x3A, 0x7B, 0x5D]

    /// A replacement for `member`: of another type, or an edge value of its own.
    static func mutation(of member: JSONValue, _ rng: inout SeededRandom) -> JSONValue? {
        switch rng.int(0...9) {
        case 0: return nil
        case 1: return .null
        case 2: return randomValue(&rng, depth: 0)
        case 3: return .string(edgeString(&rng))
        case 4: return edgeNumber(&rng)
        case 5:
            if case .array(let items) = member { return rng.chance(0.5) ? .array([]) : .array(items + items + items) }
            if case .object(var fields) = member {
                fields[edgeString(&rng)] = randomValue(&rng, depth: 1)
                return .object(fields)
            }
            return .array([member])
        case 6:
            // The same value as a string, or a string's text as a number.
            if case .string(let text) = member { return Int64(text).map { .integer($0) } ?? .string(text + edgeString(&rng)) }
            return .string(member.compactText())
        default:
            switch member {
            case .string(let text): return .string(tweak(text, &rng))
            case .integer(let n): return rng.chance(0.5) ? .integer(n &+ Int64(rng.int(-2...2))) : edgeNumber(&rng)
            case .bool(let b): return .bool(!b)
            default: return randomValue(&rng, depth: 1)
            }
        }
    }

    /// A string near `text`: a character changed, cut, doubled or surrounded.
    static func tweak(_ text: String, _ rng: inout SeededRandom) -> String {
        var scalars = Array(text.unicodeScalars)
        switch rng.int(0...5) {
        case 0 where !scalars.isEmpty: scalars[rng.int(0...(scalars.count - 1))] = rng.pick(oddScalars)
        case 1 where !scalars.isEmpty: scalars.remove(at: rng.int(0...(scalars.count - 1)))
        case 2: scalars = Array(scalars.prefix(scalars.count / 2))
        case 3: return text + text
        case 4: return " " + text + " "
        default: return text.uppercased()
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    static let oddScalars: [Unicode.Scalar] = ["\u{0}", "\u{1}", "\t", "\n", " ", "/", ".", "\\", "\"", "%", "é", "\u{301}", "\u{200B}", "\u{FFFF}", "🙂", "\u{10FFFF}"]

    /// Strings a careless or hostile client sends for an id, a name, a date or a token.
    public static func edgeString(_ rng: inout SeededRandom) -> String {
        switch rng.int(0...11) {
        case 0: return ""
        case 1: return " "
        case 2: return "nul\u{0}inside"
        case 3: return "../../etc/passwd"
        case 4: return String(repeating: "x", count: rng.int(200...70_000))
        case 5: return "ünïcödé 🙂"
        case 6: return "2026-02-30T25:61:61Z"
        case 7: return "9999-12-31T23:59:59.999999999Z"
        case 8: return "0001-01-01T00:00:00Z"
        case 9: return "'; DROP TABLE events; --"
        case 10: return "%00%ff\\u0000"
        default: return rng.string(from: Array("abcXYZ019-_.:/+= \t\u{7F}é"), length: rng.int(1...40))
        }
    }

    /// Numbers at and past every bound a decoder might hold: signs, zero, the 64-bit
    /// edges, exponents, fractions, literals longer than any integer type.
    public static func edgeNumber(_ rng: inout SeededRandom) -> JSONValue {
        rng.pick([
            .integer(0), .integer(-1), .integer(1), .integer(Int64.max), .integer(Int64.min), .integer(1_000_000_000),
            .integer(1_000_000_001), .integer(1_000_000_000_000_000), .integer(1_000_000_000_000_001), .integer(Int64(Int32.max) + 1),
            .decimal("1e3"), .decimal("1.0"), .decimal("-0"), .decimal("0.5"), .decimal("1E400"), .decimal("-1e-400"),
            .decimal("123456789012345678901234567890"), .decimal("18446744073709551616"), .decimal("9223372036854775808"),
        ])
    }

    /// Any JSON value, nested at most three deep.
    public static func randomValue(_ rng: inout SeededRandom, depth: Int) -> JSONValue {
        switch rng.int(0...(depth >= 3 ? 4 : 6)) {
        case 0: return .null
        case 1: return .bool(rng.chance(0.5))
        case 2: return edgeNumber(&rng)
        case 3, 4: return .string(edgeString(&rng))
        case 5: return .array((0..<rng.int(0...4)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            var fields: [String: JSONValue] = [:]
            for _ in 0..<rng.int(0...4) { fields[edgeString(&rng)] = randomValue(&rng, depth: depth + 1) }
            return .object(fields)
        }
    }

    // MARK: Paths

    enum Step { case key(String), index(Int) }

    /// Every member of `value` below the root, with its path.
    static func members(of value: JSONValue, at path: [Step]) -> [([Step], JSONValue)] {
        var found: [([Step], JSONValue)] = path.isEmpty ? [] : [(path, value)]
        switch value {
        case .object(let fields):
            for key in fields.keys.sorted() { found += members(of: fields[key]!, at: path + [.key(key)]) }
        case .array(let items):
            for (index, item) in items.enumerated() { found += members(of: item, at: path + [.index(index)]) }
        default: break
        }
        return found
    }

    /// `value` with the member at `path` set to `new`, or removed when `new` is nil.
    static func replacing(_ value: JSONValue, at path: [Step], with new: JSONValue?) -> JSONValue {
        guard let first = path.first else { return new ?? .null }
        let rest = Array(path.dropFirst())
        switch (first, value) {
        case (.key(let key), .object(var fields)):
            if rest.isEmpty, new == nil {
                fields.removeValue(forKey: key)
            } else {
                fields[key] = replacing(fields[key] ?? .null, at: rest, with: new)
            }
            return .object(fields)
        case (.index(let index), .array(var items)) where items.indices.contains(index):
            if rest.isEmpty, new == nil {
                items.remove(at: index)
            } else {
                items[index] = replacing(items[index], at: rest, with: new)
            }
            return .array(items)
        default:
            return value
        }
    }
}
