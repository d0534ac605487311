import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// A usage event read by the fast path is the value `Codable` reads, and whatever the fast
/// path does not take is left to `Codable`, errors included (U1: every usage event the log
/// holds folds the same whichever path read it).
@Suite("Fast decoding")
struct FastDecodingTests {
    @Test("U1: usage.recorded read fast or through Codable is the same value or the same refusal")
    func usageRecordedAgreesWithCodable() throws {
        var fastTaken = 0
        try Property.check("fast.usage", count: 3000) { (rng, seed) throws in
            let value = Self.candidate(&rng)
            let codable = Result { try JSONValueDecoder().decode(UsageRecorded.self, from: value) }
            let combined = Result { try JSONValueDecoder().decodeFast(UsageRecorded.self, from: value) }
            if let fast = UsageRecorded(fastJSON: value) {
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

    /// Mostly the ordinary shape, often with one member missing, of another kind, or extra.
    static func candidate(_ rng: inout SeededRandom) -> JSONValue {
        var members: [String: JSONValue] = [
            "usage_id": .string("u-\(rng.int(0...999))"), "project_id": .string("p-\(rng.int(0...9))"),
            "meter": .string(rng.pick(Meter.allCases).rawValue), "quantity": .integer(Int64(rng.int(-5...1_000_000))),
        ]
        if rng.chance(0.6) {
            let key = rng.pick(["usage_id", "project_id", "meter", "quantity", "extra"])
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
