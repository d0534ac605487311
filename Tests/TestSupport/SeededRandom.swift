import Foundation

/// SplitMix64 (shared by every test target): tiny, fast and fully determined by its seed, so a failing generated case
/// can be replayed from the seed the failure message prints.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    public mutating func pick<T>(_ choices: [T]) -> T { choices[int(0...(choices.count - 1))] }

    /// A string of `length` characters drawn from `alphabet`.
    public mutating func string(from alphabet: [Character], length: Int) -> String {
        String((0..<length).map { _ in alphabet.randomElement(using: &self)! })
    }
}

/// Runs generated cases, each from its own seed, and failure messages print that seed.
///
/// To replay a failure, run with LEDGER_TEST_CASE_SEED set to the printed seed: every
/// property test then runs that one case. LEDGER_TEST_SEED (decimal or 0x-hex) changes
/// the base from which all case seeds derive, to explore other cases.
public enum Property {
    public static func environmentSeed(_ name: String) -> UInt64? {
        guard let text = ProcessInfo.processInfo.environment[name], !text.isEmpty else { return nil }
        if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
        return UInt64(text)
    }

    /// Whether one case is being replayed (LEDGER_TEST_CASE_SEED): counts do not hold then.
    public static var isReplaying: Bool { environmentSeed("LEDGER_TEST_CASE_SEED") != nil }

    /// The base seed: fixed unless LEDGER_TEST_SEED says otherwise, so runs reproduce.
    public static var baseSeed: UInt64 { environmentSeed("LEDGER_TEST_SEED") ?? 0x5EED_1ED6_E000_0001 }

    /// The seed of case `index` of a test named `name`.
    public static func seed(_ name: String, _ index: Int) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return (baseSeed ^ h) &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
    }

    /// Calls `body` for `count` cases with a generator seeded for each.
    public static func check(_ name: String, count: Int, _ body: (inout SeededRandom, _ seed: UInt64) throws -> Void) throws {
        if let replay = environmentSeed("LEDGER_TEST_CASE_SEED") {
            var rng = SeededRandom(seed: replay)
            try body(&rng, replay)
            return
        }
        for i in 0..<count {
            let s = seed(name, i)
            var rng = SeededRandom(seed: s)
            try body(&rng, s)
        }
    }
}

extension UInt64 {
    /// As the failure messages print seeds.
    public var hex: String { "0x" + String(self, radix: 16) }
}

/// Byte equality of texts. Swift's `==` on `String` is Unicode canonical equivalence, so
/// "é" and "e\u{301}" compare equal: too lenient for checking output byte for byte.
public func sameBytes(_ a: String?, _ b: String?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return a.utf8.elementsEqual(b.utf8)
}
