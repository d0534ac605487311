import TestSupport
@testable import LedgerJSON

/// Random JSON values and texts for property tests.
enum Gen {
    /// Scalars chosen to stress escaping and ordering: every control character, DEL,
    /// quotes and backslashes, Latin-1, CJK, emoji (4-byte UTF-8), combining marks,
    /// zero-width joiners, bidi, U+2028/2029 and noncharacters.
    static let interestingScalars: [Unicode.Scalar] =
        (0x01...0x1F).map { Unicode.Scalar($0)! } + [
            "\u{7F}", "\"", "\\", "/", " ", "a", "Z", "0", "é", "ß", "ÿ", "\u{100}", "€", "中", "文", "😀", "🇨", "🇭",
            "\u{1F3FD}", "\u{200D}", "\u{0301}", "\u{0308}", "\u{05D0}", "\u{202E}", "\u{2028}", "\u{2029}", "\u{FEFF}",
            "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{10FFFF}", "\u{E000}",
        ]

    static func string(_ rng: inout SeededRandom, maxLength: Int = 12, allowNUL: Bool = false) -> String {
        var scalars = String.UnicodeScalarView()
        let length = rng.chance(0.05) ? rng.int(40...300) : rng.int(0...maxLength)
        for _ in 0..<length {
            switch rng.int(0...9) {
            case 0...4: scalars.append(Unicode.Scalar(UInt8(rng.int(0x20...0x7E))))
            case 5...7: scalars.append(rng.pick(interestingScalars))
            case 8: scalars.append(Unicode.Scalar(UInt32(rng.int(0xA0...0xD7FF)))!)
            default: scalars.append(Unicode.Scalar(UInt32(rng.int(0x10000...0x10FFFF)))!)
            }
        }
        if allowNUL && rng.chance(0.5) {
            let at = scalars.index(scalars.startIndex, offsetBy: rng.int(0...scalars.count))
            scalars.insert("\u{0}", at: at)
        }
        return String(scalars)
    }

    /// Keys whose jsonb order (length first) differs from bytewise order, plus random ones.
    static let keyPool = ["", "a", "b", "B", "Z", "aa", "ab", "aB", "b0", "zz", "é", "ä", "€", "😀", "id", "amount",
                          "currency", "a b", "\u{7F}", "\t", "key\u{1}", "ａ", "👍🏽", "ĳ", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
                          String(repeating: "k", count: 300)]

    static func key(_ rng: inout SeededRandom) -> String {
        rng.chance(0.6) ? rng.pick(keyPool) : string(&rng, maxLength: 8)
    }

    static func value(_ rng: inout SeededRandom, depth: Int = 0, maxDepth: Int = 4) -> JSONValue {
        let containers = depth < maxDepth
        switch rng.int(0...(containers ? 9 : 6)) {
        case 0: return .null
        case 1: return .bool(rng.chance(0.5))
        case 2: return .integer(integer(&rng))
        case 3: return number(&rng)
        case 4, 5, 6: return .string(string(&rng))
        case 7, 8:
            return .array((0..<rng.int(0...6)).map { _ in value(&rng, depth: depth + 1, maxDepth: maxDepth) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<rng.int(0...8) { members[key(&rng)] = value(&rng, depth: depth + 1, maxDepth: maxDepth) }
            return .object(members)
        }
    }

    static func integer(_ rng: inout SeededRandom) -> Int64 {
        switch rng.int(0...5) {
        case 0: return rng.pick([0, 1, -1, .max, .min, .max - 1, .min + 1, 999_999_999_999_999_999, -1_000_000_000_000_000_000])
        case 1: return Int64.random(in: .min ... .max, using: &rng)
        case 2: return Int64(rng.int(-1000...1000))
        default: return Int64(rng.int(-1...1)) * Int64.random(in: 0...(Int64(1) << rng.int(1...62)), using: &rng)
        }
    }

    /// A number value as the parser makes it (so `.integer` whenever the value allows).
    static func number(_ rng: inout SeededRandom, maxExponent: Int = 40) -> JSONValue {
        try! JSONValue.number(fromLiteral: numberLiteral(&rng, maxExponent: maxExponent))
    }

    /// A JSON number literal: any sign, digits, fraction and exponent form.
    static func numberLiteral(_ rng: inout SeededRandom, maxExponent: Int = 40) -> String {
        var s = rng.chance(0.4) ? "-" : ""
        if rng.chance(0.25) {
            s += "0"
        } else {
            s += String(rng.int(1...9))
            let more = rng.chance(0.1) ? rng.int(15...60) : rng.int(0...8)
            for _ in 0..<more { s += String(rng.int(0...9)) }
        }
        if rng.chance(0.6) {
            s += "."
            let count = rng.chance(0.1) ? rng.int(10...40) : rng.int(1...5)
            for _ in 0..<count { s += rng.chance(0.3) ? "0" : String(rng.int(0...9)) }
        }
        if rng.chance(0.5) {
            s += rng.pick(["e", "E"])
            s += rng.pick(["", "+", "-"])
            if rng.chance(0.2) { s += String(repeating: "0", count: rng.int(1...3)) }
            s += String(rng.int(0...maxExponent))
        }
        return s
    }

    /// Literals at and around the edges of `numeric`: the accepted range and just beyond.
    static let boundaryLiterals = [
        "0", "-0", "0.0", "-0.0", "0e0", "-0e-0", "0E+0", "0.000e3", "0e-16383", "0e-16384", "0e999999", "0e1073741822",
        "0e1073741823", "0.0e-16382", "0.0e-16383", "1e131071", "9.9e131071", "1e131072", "10e131071", "0.01e131073",
        "0.1e131073", "1e-16383", "1e-16384", "0.5e-16382", "0.5e-16383", "-1e-16383", "1e1073741822", "1e-1073741822",
        "1e99999999999999999999", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-9223372036854775809", "18446744073709551616", "922337203685477580.7e1", "9.223372036854775807e18",
        "9.223372036854775808e18", "-9.223372036854775808e18", "1.0", "1.50", "1e3", "1E-2", "1e-7", "10e-1", "100e-2",
        "0.5e1", "1.25e1", "12e-5", "123.456e-2", "1.000e2", "5E00001", "1e-0", "0.001e-3", "-1.0", "0.000",
    ]
}
