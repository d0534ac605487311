import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// An event read by the fast path is the value `Codable` reads, and whatever the fast path
/// does not take is left to `Codable`, errors included: every usage and credit event the
/// log holds folds the same whichever path read it (U1, B1).
@Suite("Fast decoding", .bounded)
struct FastDecodingTests {
    @Test("U1: usage.recorded read fast or through Codable is the same value or the same refusal")
    func usageRecordedAgreesWithCodable() throws {
        try Self.agree(UsageRecorded.self, "fast.usage") { rng in
            [
                "usage_id": .string("u-\(rng.int(0...999))"), "project_id": .string("p-\(rng.int(0...9))"),
                "meter": .string(rng.pick(Meter.allCases).rawValue), "quantity": .integer(Int64(rng.int(-5...1_000_000))),
            ]
        }
    }

    @Test("B1: credit.posted read fast or through Codable is the same value or the same refusal")
    func creditPostedAgreesWithCodable() throws {
        try Self.agree(CreditPosted.self, "fast.credit") { rng in
            // Each member valid most of the time, and otherwise something `Codable` refuses.
            [
                "pool": .string(rng.chance(0.9) ? rng.pick(["project:p-\(rng.int(0...9))", "payer:q"])
                                                : rng.pick(["project:", "org:x", "project:a b"])),
                "source": .string(rng.chance(0.9) ? rng.pick(CreditSource.allCases).rawValue : "Plan"),
                "amount": .string(rng.chance(0.9) ? "\(rng.int(-1000...100_000))" : rng.pick(["01", "-0", "1.5", "", "+3"])),
                "description": .string(rng.pick(["bench credit", "", "é"])),
            ]
        }
    }

    /// Generated payloads of `T` (mostly `ordinary`, often altered) decode to the same
    /// value or the same error on both paths, and the fast path takes only what `Codable`
    /// takes.
    static func agree<T: JSONFastDecodable & Equatable>(_ type: T.Type, _ name: String,
                                                        ordinary: (inout SeededRandom) -> [String: JSONValue]) throws {
        var fastTaken = 0
        try Property.check(name, count: 3000) { (rng, seed) throws in
            let value = Self.altered(ordinary(&rng), &rng)
            let codable = Result { try JSONValueDecoder().decode(T.self, from: value) }
            let combined = Result { try JSONValueDecoder().decodeFast(T.self, from: value) }
            if let fast = T(fastJSON: value) {
                fastTaken += 1
                #expect(try codable.get() == fast, "seed \(seed.hex): \(value)")
            }
            switch (codable, combined) {
            case (.success(let a), .success(let b)): #expect(a == b, "seed \(seed.hex)")
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "seed \(seed.hex)")
            default: Issue.record("seed \(seed.hex): the paths disagree on \(value)")
            }
        }
        // Both kinds of case were generated: the fast path took some, Codable the rest.
        #expect(Property.isReplaying || (fastTaken > 300 && fastTaken < 2700))
    }

    /// Often with one member missing, of another kind, or extra.
    static func altered(_ ordinary: [String: JSONValue], _ rng: inout SeededRandom) -> JSONValue {
        var members = ordinary
        if rng.chance(0.6) {
            let key = rng.pick(Array(ordinary.keys).sorted() + ["extra"])
            switch rng.int(0...4) {
            case 0: members[key] = nil
            case 1: members[key] = .integer(7)
            case 2: members[key] = .string(rng.pick(["api_requests", "API_REQUESTS", "", "7"]))
            case 3: members[key] = .decimal("1.5")
            default: members[key] = rng.chance(0.5) ? .null : .bool(true)
            }
        }
        return rng.chance(0.02) ? .array([.object(members)]) : .object(members)
    }
}
