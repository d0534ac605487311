import Foundation
import TestSupport
@testable import LedgerJSON

enum Status: String, Codable, CaseIterable {
    case active, cancelled, pastDue = "past_due"
}

struct Money: Codable, Equatable {
    var amount: String
    var currency: String
}

struct LineItem: Codable, Equatable {
    var sku: String
    var quantity: Int32
    var unit: Money
    var note: String?
    var tags: [String]
    var status: Status
}

struct Invoice: Codable, Equatable {
    var id: UUID
    var issuedAt: Date
    var dueAt: Date?
    var items: [LineItem]
    var totals: [String: Int64]
    var discount: Int64?
    var optionalElements: [Int?]
    var matrix: [[Int8]]
    var small: UInt16
    var unsigned: UInt64
    var whole: Double
    var flag: Bool
    var extra: JSONValue
    var link: URL?
    var blob: Data
}

/// A class hierarchy coded through `superEncoder()` / `superDecoder()`, plus a custom
/// layout using nested containers.
class Party: Codable, Equatable {
    var id: Int
    init(id: Int) { self.id = id }
    private enum CodingKeys: String, CodingKey { case id }
    required init(from decoder: any Decoder) throws {
        id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
    }
    static func == (a: Party, b: Party) -> Bool { a.isEqual(to: b) }
    func isEqual(to other: Party) -> Bool { type(of: self) == type(of: other) && id == other.id }
}

final class Payer: Party {
    var name: String
    var address: [String]
    init(id: Int, name: String, address: [String]) {
        self.name = name
        self.address = address
        super.init(id: id)
    }
    private enum CodingKeys: String, CodingKey { case name, location, base }
    private enum LocationKeys: String, CodingKey { case lines, count }
    required init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        let location = try c.nestedContainer(keyedBy: LocationKeys.self, forKey: .location)
        var lines = try location.nestedUnkeyedContainer(forKey: .lines)
        var address: [String] = []
        while !lines.isAtEnd { address.append(try lines.decode(String.self)) }
        self.address = address
        try super.init(from: c.superDecoder(forKey: .base))
    }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        var location = c.nestedContainer(keyedBy: LocationKeys.self, forKey: .location)
        try location.encode(address.count, forKey: .count)
        var lines = location.nestedUnkeyedContainer(forKey: .lines)
        for line in address { try lines.encode(line) }
        try super.encode(to: c.superEncoder(forKey: .base))
    }
    override func isEqual(to other: Party) -> Bool {
        guard let o = other as? Payer else { return false }
        return super.isEqual(to: o) && name == o.name && address == o.address
    }
}

/// Unkeyed containers all the way: a nested keyed container, a nested unkeyed one and a
/// super encoder in an array.
struct Tuple: Codable, Equatable {
    var label: String
    var pair: [Int64]
    var party: Party

    init(label: String, pair: [Int64], party: Party) {
        self.label = label
        self.pair = pair
        self.party = party
    }
    private enum LabelKeys: String, CodingKey { case label }
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        label = try c.nestedContainer(keyedBy: LabelKeys.self).decode(String.self, forKey: .label)
        var inner = try c.nestedUnkeyedContainer()
        pair = [try inner.decode(Int64.self), try inner.decode(Int64.self)]
        party = try Party(from: c.superDecoder())
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        var labelled = c.nestedContainer(keyedBy: LabelKeys.self)
        try labelled.encode(label, forKey: .label)
        var inner = c.nestedUnkeyedContainer()
        for n in pair { try inner.encode(n) }
        try party.encode(to: c.superEncoder())
    }
}

enum CodableGen {
    static func date(_ rng: inout SeededRandom, years: ClosedRange<Int> = 1970...2100) -> Date {
        // Built like DateText.parse builds dates, so that decoding gives back the same Date.
        func pad(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let text = "\(pad(rng.int(years), 4))-\(pad(rng.int(1...12), 2))-\(pad(rng.int(1...28), 2))T"
            + "\(pad(rng.int(0...23), 2)):\(pad(rng.int(0...59), 2)):\(pad(rng.int(0...59), 2)).\(pad(rng.int(0...999_999), 6))Z"
        return DateText.parse(text)!
    }

    static func uuid(_ rng: inout SeededRandom) -> UUID {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    static func money(_ rng: inout SeededRandom) -> Money {
        Money(amount: "\(rng.int(0...1_000_000)).\(rng.int(10...99))", currency: rng.pick(["EUR", "USD", "CHF"]))
    }

    static func lineItem(_ rng: inout SeededRandom) -> LineItem {
        LineItem(sku: Gen.string(&rng), quantity: Int32.random(in: .min ... .max, using: &rng), unit: money(&rng),
                 note: rng.chance(0.5) ? Gen.string(&rng) : nil, tags: (0..<rng.int(0...3)).map { _ in Gen.string(&rng, maxLength: 5) },
                 status: rng.pick(Status.allCases))
    }

    static func invoice(_ rng: inout SeededRandom) -> Invoice {
        var totals: [String: Int64] = [:]
        for _ in 0..<rng.int(0...4) { totals[Gen.key(&rng)] = Gen.integer(&rng) }
        return Invoice(
            id: uuid(&rng), issuedAt: date(&rng), dueAt: rng.chance(0.5) ? date(&rng) : nil,
            items: (0..<rng.int(0...4)).map { _ in lineItem(&rng) }, totals: totals,
            discount: rng.chance(0.5) ? Gen.integer(&rng) : nil,
            optionalElements: (0..<rng.int(0...4)).map { _ in rng.chance(0.3) ? nil : rng.int(-5...5) },
            matrix: (0..<rng.int(0...3)).map { _ in (0..<rng.int(0...3)).map { _ in Int8.random(in: .min ... .max, using: &rng) } },
            small: UInt16.random(in: 0 ... .max, using: &rng), unsigned: UInt64.random(in: 0...UInt64(Int64.max), using: &rng),
            whole: Double(rng.int(-1_000_000...1_000_000)), flag: rng.chance(0.5), extra: Gen.value(&rng, maxDepth: 2),
            link: rng.chance(0.5) ? URL(string: "https://example.com/i/\(rng.int(0...999))?q=\(rng.int(0...9))") : nil,
            blob: Data((0..<rng.int(0...20)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
    }
}
