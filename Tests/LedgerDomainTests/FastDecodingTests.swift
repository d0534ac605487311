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

    @Test("U1: usage.recorded read straight from its text or parsed is the same value or the same refusal")
    func usageRecordedTextAgreesWithParsing() throws {
        try Self.agreeOnText(UsageRecorded.self, "fast.usage.text") { rng in
            [
                ("usage_id", "\"u-\(rng.int(0...999))\""), ("project_id", "\"p-\(rng.int(0...9))\""),
                ("meter", "\"\(rng.pick(Meter.allCases).rawValue)\""), ("quantity", "\(rng.int(-5...1_000_000))"),
            ]
        }
    }

    @Test("B1: credit.posted read straight from its text or parsed is the same value or the same refusal")
    func creditPostedTextAgreesWithParsing() throws {
        try Self.agreeOnText(CreditPosted.self, "fast.credit.text") { rng in
            [
                ("pool", "\"\(rng.pick(["project:p-\(rng.int(0...9))", "payer:q", "project:", "org:x"]))\""),
                ("source", "\"\(rng.pick(CreditSource.allCases.map(\.rawValue) + ["Plan"]))\""),
                ("amount", "\"\(rng.chance(0.9) ? "\(rng.int(-1000...100_000))" : rng.pick(["01", "-0", "1.5", ""]))\""),
                ("description", "\"\(rng.pick(["bench credit", "", "é", "tab\\tbed", "a \\u00e9"]))\""),
            ]
        }
    }

    /// An App Store transaction's members: the required ones, often some optional ones
    /// (sometimes `null`), each value usually valid and otherwise what `Codable` refuses.
    static func transactionMembers(_ rng: inout SeededRandom) -> [(String, JSONValue)] {
        func instant() -> JSONValue {
            .string(rng.chance(0.9) ? rng.pick(["2026-11-29T12:00:00Z", "2026-12-01T08:30:15.123456Z", "1970-01-01T00:00:00Z"])
                                    : rng.pick(["2026-13-01T00:00:00Z", "yesterday", ""]))
        }
        var members: [(String, JSONValue)] = [
            ("org_id", .string("org-\(rng.int(0...9))")), ("original_transaction_id", .string("\(rng.int(1000...9999))")),
            ("transaction_id", .string("\(rng.int(1000...9999))")), ("product_id", .string("pro.monthly")),
            ("plan", .string(rng.chance(0.9) ? rng.pick(Plan.allCases).rawValue : "platinum")), ("purchase_date", instant()),
            ("signed_date", instant()), ("environment", .string(rng.pick(["Sandbox", "Production"]))),
            ("via", .string(rng.pick(["storekit", "DID_RENEW"]))), ("expired_when_recorded", .bool(rng.chance(0.2))),
        ]
        let optional: [(String, JSONValue)] = [
            ("expires_date", instant()), ("revocation_date", instant()), ("person_id", .string("person-\(rng.int(0...9))")),
            ("in_app_ownership_type", .string(rng.pick(["PURCHASED", "FAMILY_SHARED"]))), ("offer_type", .integer(Int64(rng.int(1...4)))),
            ("offer_identifier", .string("winback")), ("offer_discount_type", .string("FREE_TRIAL")),
        ]
        for member in optional where rng.chance(0.4) { members.append(rng.chance(0.15) ? (member.0, .null) : member) }
        return members
    }

    @Test("T4: appstore.transaction_recorded read fast or through Codable is the same value or the same refusal")
    func transactionRecordedAgreesWithCodable() throws {
        try Self.agree(AppStoreTransactionRecorded.self, "fast.appstore-transaction") { rng in
            Dictionary(uniqueKeysWithValues: Self.transactionMembers(&rng))
        }
    }

    @Test("T4: appstore.transaction_recorded read straight from its text or parsed is the same value or the same refusal")
    func transactionRecordedTextAgreesWithParsing() throws {
        try Self.agreeOnText(AppStoreTransactionRecorded.self, "fast.appstore-transaction.text") { rng in
            Self.transactionMembers(&rng).map { ($0.0, $0.1.canonicalText) }
        }
    }

    /// Payload texts of `T` (PostgreSQL's layout or another, members in any order, often
    /// altered at the byte level) decode to the same value or the same error whether the
    /// text is read straight or parsed first, and the text path takes only what the
    /// parsed path takes.
    static func agreeOnText<T: JSONFastDecodable & Equatable>(_ type: T.Type, _ name: String,
                                                              ordinary: (inout SeededRandom) -> [(String, String)]) throws {
        var fastTaken = 0
        try Property.check(name, count: 3000) { (rng, seed) throws in
            let text = Self.alteredText(ordinary(&rng), &rng)
            let parsed = Result { try JSONValueDecoder().decodeFast(T.self, from: try JSONValue.parse(text)) }
            let straight = Result { try JSONValueDecoder().decodeFast(T.self, fromText: text) }
            if let fast = T(fastJSONText: text) {
                fastTaken += 1
                #expect(try parsed.get() == fast, "seed \(seed.hex): \(text)")
            }
            switch (parsed, straight) {
            case (.success(let a), .success(let b)): #expect(a == b, "seed \(seed.hex)")
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "seed \(seed.hex)")
            default: Issue.record("seed \(seed.hex): the paths disagree on \(text)")
            }
        }
        #expect(Property.isReplaying || (fastTaken > 300 && fastTaken < 2700))
    }

    /// Members written out in a shuffled order with varied spacing; often one value or key
    /// replaced by something the text path must leave to the parser, a member repeated or
    /// dropped, or bytes added around the object.
    static func alteredText(_ members: [(String, String)], _ rng: inout SeededRandom) -> String {
        var members = members
        members.shuffle(using: &rng)
        if rng.chance(0.5) {
            let i = rng.int(0...(members.count - 1))
            switch rng.int(0...9) {
            case 0: members.remove(at: i)
            case 1: members.append((members[i].0, rng.pick(["\"x\"", "7"])))
            case 2: members[i].1 = rng.pick(["-0", "1.0", "1e2", "01", "1234567890123456789", "-", "\"\\u0041\"", "null", "{}", "[1]"])
            case 3: members[i].0 = rng.pick(["extra", "usage_i", "Pool", "quantity\\u0000", ""])
            case 4: members[i].1 = "\"a\u{01}b\""
            case 5: members.append(("extra", "1"))
            default: members[i].1 = rng.pick(["0", "42", "-7", "999999999999999999", "\"api_requests\"", "\"project:p-1\""])
            }
        }
        let colon = rng.pick([": ", ":", " : ", ":\n"])
        let comma = rng.pick([", ", ",", " ,\t"])
        var text = "{" + members.map { "\"\($0.0)\"\(colon)\($0.1)" }.joined(separator: comma) + "}"
        if rng.chance(0.1) { text = rng.pick([" ", "\n", "x", "[", "{}"]) + text }
        if rng.chance(0.1) { text += rng.pick([" ", "\r\n", "}", ",", "0"]) }
        return text
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
