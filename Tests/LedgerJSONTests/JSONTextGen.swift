import TestSupport
/// Random JSON texts written token by token, with what a value generator never
/// produces: duplicate keys, every escape form (either hex case, surrogate pairs),
/// exponents, and whitespace everywhere.
enum JSONTextGen {
    static func text(_ rng: inout SeededRandom, depth: Int = 0) -> String {
        ws(&rng) + value(&rng, depth: depth) + ws(&rng)
    }

    static func ws(_ rng: inout SeededRandom) -> String {
        rng.chance(0.7) ? "" : String((0..<rng.int(1...3)).map { _ in rng.pick([" ", "\t", "\n", "\r"]) })
    }

    static func value(_ rng: inout SeededRandom, depth: Int) -> String {
        switch rng.int(0...(depth < 4 ? 9 : 5)) {
        case 0: return rng.pick(["true", "false", "null"])
        case 1, 2: return Gen.numberLiteral(&rng, maxExponent: 30)
        case 3, 4, 5: return string(&rng, keyLike: false)
        case 6, 7:
            let elements = (0..<rng.int(0...5)).map { _ in ws(&rng) + value(&rng, depth: depth + 1) + ws(&rng) }
            return "[" + (elements.isEmpty ? ws(&rng) : elements.joined(separator: ",")) + "]"
        default:
            var keys: [String] = []
            let members = (0..<rng.int(0...6)).map { _ -> String in
                // Repeat an earlier key now and then: the last one must win.
                let key = !keys.isEmpty && rng.chance(0.25) ? rng.pick(keys) : string(&rng, keyLike: true)
                keys.append(key)
                return ws(&rng) + key + ws(&rng) + ":" + ws(&rng) + value(&rng, depth: depth + 1) + ws(&rng)
            }
            return "{" + (members.isEmpty ? ws(&rng) : members.joined(separator: ",")) + "}"
        }
    }

    /// Scalars for keys: no combining marks, so that no two keys are canonically
    /// equivalent yet spelled differently (a case the parser refuses on purpose).
    static let keyScalars: [Unicode.Scalar] = ["a", "b", "B", "z", "0", " ", "é", "€", "😀", "中", "\u{7F}", "ß"]

    static func string(_ rng: inout SeededRandom, keyLike: Bool) -> String {
        var out = "\""
        for _ in 0..<rng.int(0...(keyLike ? 3 : 8)) {
            let scalar: Unicode.Scalar = keyLike ? rng.pick(keyScalars) : rng.pick(Gen.interestingScalars)
            switch rng.int(0...3) {
            case 0:
                out += escaped(scalar, &rng)
            default:
                if scalar == "\"" || scalar == "\\" || scalar.value < 0x20 { out += escaped(scalar, &rng) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    static func escaped(_ scalar: Unicode.Scalar, _ rng: inout SeededRandom) -> String {
        let short: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "/": "\\/", "\u{8}": "\\b", "\u{C}": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"]
        if let s = short[scalar], rng.chance(0.5) { return s }
        func u(_ unit: UInt16) -> String {
            let digits = String(unit, radix: 16, uppercase: rng.chance(0.5))
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        return String(scalar).utf16.map(u).joined()
    }

    /// One random edit: insert, delete or replace a scalar with a JSON-significant one.
    static func mutate(_ text: String, _ rng: inout SeededRandom) -> String {
        var scalars = Array(text.unicodeScalars)
        let pool: [Unicode.Scalar] = ["{", "}", "[", "]", ",", ":", "\"", "\\", "0", "1", "-", "+", ".", "e", "E", "t", "n", "u",
                                      "d", "8", "x", " ", "\t", "\u{1}", "\u{1F}", "é", "\u{FEFF}"]
        for _ in 0..<rng.int(1...2) {
            let at = rng.int(0...scalars.count)
            switch rng.int(0...2) {
            case 0: scalars.insert(rng.pick(pool), at: at)
            case 1: if at < scalars.count { scalars.remove(at: at) }
            default: if at < scalars.count { scalars[at] = rng.pick(pool) }
            }
        }
        return String(String.UnicodeScalarView(scalars))
    }
}
