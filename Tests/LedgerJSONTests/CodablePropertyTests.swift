import Foundation
import Testing
import TestSupport
@testable import LedgerJSON

@Suite("Property: Codable round trips", .bounded)
struct CodablePropertyTests {
    @Test("generated structs survive encode/decode, and encode/text/parse/decode")
    func roundTrips() throws {
        try Property.check("codable.roundtrip", count: 1500) { (rng, seed) throws in
            let invoice = CodableGen.invoice(&rng)
            let value = try JSONValueEncoder().encode(invoice)
            #expect(try JSONValueDecoder().decode(Invoice.self, from: value) == invoice, "seed \(seed.hex)")
            let reparsed = try JSONValue.parse(value.canonicalText)
            #expect(try JSONValueDecoder().decode(Invoice.self, from: reparsed) == invoice, "seed \(seed.hex)")
            try value.validateForJSONB()
        }
    }

    @Test("class hierarchies and unkeyed layouts round trip")
    func hierarchies() throws {
        try Property.check("codable.hierarchy", count: 500) { (rng, seed) throws in
            let payer = Payer(id: rng.int(-1000...1000), name: Gen.string(&rng), address: (0..<rng.int(0...3)).map { _ in Gen.string(&rng) })
            let tuple = Tuple(label: Gen.string(&rng), pair: [Gen.integer(&rng), Gen.integer(&rng)], party: Party(id: rng.int(-9...9)))
            let value = try JSONValueEncoder().encode([tuple])
            #expect(try JSONValueDecoder().decode([Tuple].self, from: value) == [tuple], "seed \(seed.hex)")
            #expect(try JSONValueDecoder().decode(Payer.self, from: JSONValueEncoder().encode(payer)) == payer, "seed \(seed.hex)")
        }
    }

    @Test("our encoder and Foundation's JSONEncoder produce the same JSON for plain types")
    func matchesFoundation() throws {
        try Property.check("codable.foundation", count: 500) { (rng, seed) throws in
            let items = (0..<rng.int(0...4)).map { _ in CodableGen.lineItem(&rng) }
            let optionals = (0..<rng.int(0...4)).map { _ in rng.chance(0.3) ? nil : Optional(Gen.integer(&rng)) }
            let ours = try JSONValueEncoder().encode(items)
            let foundation = try JSONValue.parse(JSONEncoder().encode(items))
            #expect(sameBytes(ours.canonicalText, foundation.canonicalText), "seed \(seed.hex)")
            #expect(try JSONValueEncoder().encode(optionals) == JSONValue.parse(JSONEncoder().encode(optionals)), "seed \(seed.hex)")
            // And Foundation reads what we write.
            let text = Data(ours.compactBytes())
            #expect(try JSONDecoder().decode([LineItem].self, from: text) == items, "seed \(seed.hex)")
        }
    }

    // Foundation's Gregorian calendar switches to the Julian one before 15 October 1582;
    // ISO 8601 and PostgreSQL do not. PostgresTimestampTests covers years 1 to 1582.
    @Test("timestamps agree with Foundation's Gregorian calendar from 1583 to 9999")
    func timestampsAgreeWithCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        try Property.check("codable.calendar", count: 2000) { (rng, seed) throws in
            let seconds = Int64.random(in: -12_212_553_600...253_402_300_799, using: &rng)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = try #require(DateText.format(date), "seed \(seed.hex)")
            let c = calendar.dateComponents([.era, .year, .month, .day, .hour, .minute, .second], from: date)
            func pad(_ n: Int, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(n).count)) + String(n) }
            let expected = "\(pad(c.year!, 4))-\(pad(c.month!, 2))-\(pad(c.day!, 2))T\(pad(c.hour!, 2)):\(pad(c.minute!, 2)):\(pad(c.second!, 2)).000000Z"
            #expect(c.era == 1 && text == expected, "seed \(seed.hex)")
            #expect(DateText.parse(text) == date, "seed \(seed.hex)")
        }
    }

    @Test("microseconds survive date encode/decode between 1900 and 2100")
    func microseconds() throws {
        try Property.check("codable.micros", count: 3000) { (rng, seed) throws in
            let date = CodableGen.date(&rng, years: 1900...2100)
            let text = try JSONValueEncoder().encode(date)
            #expect(try JSONValueDecoder().decode(Date.self, from: text) == date, "seed \(seed.hex)")
            // And a Date that was not built from text still prints to the nearest microsecond.
            let micros = Int64.random(in: -2_208_988_800_000_000...4_102_444_800_000_000, using: &rng)
            let raw = Date(timeIntervalSince1970: TimeInterval(micros) / 1_000_000)
            let printed = try #require(try JSONValueEncoder().encode(raw).stringValue)
            let back = try JSONValueDecoder().decode(Date.self, from: .string(printed))
            #expect(abs(back.timeIntervalSince(raw)) <= 0.000_000_6, "seed \(seed.hex): \(printed)")
        }
    }
}

/// A JSON value encoded through the containers (keyed for objects, unkeyed for arrays),
/// not as a leaf: what a Codable type's tree looks like to the encoder.
private struct ContainerTree: Encodable {
    var value: JSONValue

    struct Key: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            for (key, member) in members { try container.encode(ContainerTree(value: member), forKey: Key(stringValue: key)) }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(ContainerTree(value: element)) }
        default:
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }
}

/// Writes `a` twice: the second value stands, as with a dictionary.
private struct Rewritten: Encodable {
    var first: Int64, second: Int64
    enum CodingKeys: String, CodingKey { case a, b }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(first, forKey: .a)
        try container.encode(first, forKey: .b)
        try container.encode(second, forKey: .a)
    }
}

@Suite("Property: compact bytes straight from the encoder", .bounded)
struct CompactEncodingPropertyTests {
    @Test("encodeCompactBytes writes exactly what encode then compactBytes writes, sorted or not")
    func sameBytes() throws {
        try Property.check("codable.compact", count: 1500) { (rng, seed) throws in
            let value = Gen.value(&rng)
            let tree = ContainerTree(value: value)
            let encoder = JSONValueEncoder()
            #expect(try encoder.encodeCompactBytes(tree, sortedKeys: true) == encoder.encode(tree).compactBytes(sortedKeys: true),
                    "seed \(seed.hex)")
            #expect(try JSONValue.parse(encoder.encodeCompactBytes(tree, sortedKeys: false)) == value, "seed \(seed.hex)")
            let invoice = CodableGen.invoice(&rng)
            #expect(try encoder.encodeCompactBytes(invoice) == encoder.encode(invoice).compactBytes(), "seed \(seed.hex)")
        }
    }

    @Test("a key written twice keeps its last value, in place")
    func rewrittenKey() throws {
        let encoder = JSONValueEncoder()
        #expect(String(decoding: try encoder.encodeCompactBytes(Rewritten(first: 1, second: 2)), as: UTF8.self) == #"{"a":2,"b":1}"#)
        #expect(try encoder.encode(Rewritten(first: 1, second: 2)) == ["a": 2, "b": 1])
    }
}
