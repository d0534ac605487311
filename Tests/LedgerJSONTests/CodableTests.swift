import Foundation
import Testing
import TestSupport
@testable import LedgerJSON

@Suite("Codable bridge", .bounded)
struct CodableTests {
    let encoder = JSONValueEncoder()
    let decoder = JSONValueDecoder()

    func codingError(_ body: () throws -> Void) -> JSONCodingError? {
        do {
            try body()
            return nil
        } catch let error as JSONCodingError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test("a struct encodes to the expected value")
    func encodesStruct() throws {
        let item = LineItem(sku: "A-1", quantity: 3, unit: Money(amount: "12.50", currency: "EUR"), note: nil, tags: ["x"], status: .pastDue)
        let value = try encoder.encode(item)
        #expect(value == ["sku": "A-1", "quantity": 3, "unit": ["amount": "12.50", "currency": "EUR"], "tags": ["x"], "status": "past_due"])
        #expect(value["note"] == nil, "nil optionals are omitted")
        #expect(try decoder.decode(LineItem.self, from: value) == item)
    }

    @Test("special types: Date, UUID, URL, Data, JSONValue; nil elements become null")
    func specialTypes() throws {
        let date = DateText.parse("2026-11-29T12:00:00.123456Z")!
        #expect(try encoder.encode(date) == "2026-11-29T12:00:00.123456Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000000Z")
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(try encoder.encode(uuid) == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        #expect(try decoder.decode(UUID.self, from: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") == uuid)
        #expect(try encoder.encode(URL(string: "https://x.test/a?b=1")!) == "https://x.test/a?b=1")
        #expect(try encoder.encode(Data([0, 1, 255])) == "AAH/")
        #expect(try decoder.decode(Data.self, from: "AAH/") == Data([0, 1, 255]))
        let inner: JSONValue = ["k": .decimal("1.50")]
        #expect(try encoder.encode(["v": inner]) == ["v": ["k": .decimal("1.50")]])
        #expect(try decoder.decode([String: JSONValue].self, from: ["v": inner]) == ["v": inner])
        #expect(try encoder.encode([1, nil, 3] as [Int?]) == [1, nil, 3])
        #expect(try decoder.decode([Int?].self, from: [1, nil, 3]) == [1, nil, 3])
        #expect(try encoder.encode(["a": nil] as [String: Int?]) == ["a": nil])
    }

    @Test("dates decode with or without a fraction, with Z or an offset")
    func dateDecoding() throws {
        let base = DateText.parse("2026-11-29T12:00:00Z")!
        #expect(try decoder.decode(Date.self, from: "2026-11-29T12:00:00Z") == base)
        #expect(try decoder.decode(Date.self, from: "2026-11-29T13:00:00+01:00") == base)
        #expect(try decoder.decode(Date.self, from: "2026-11-29T11:30:00-00:30") == base)
        #expect(try decoder.decode(Date.self, from: "2026-11-29t12:00:00z") == base)
        for text in ["2026-11-29T12:00:00.5Z", "2026-11-29T12:00:00.500Z", "2026-11-29T12:00:00.500000Z", "2026-11-29T12:00:00.500000999Z"] {
            let d = try decoder.decode(Date.self, from: .string(text))
            #expect(try encoder.encode(d) == "2026-11-29T12:00:00.500000Z", "\(text)")
        }
        #expect(try encoder.encode(try decoder.decode(Date.self, from: "2024-02-29T23:59:59.999999Z")) == "2024-02-29T23:59:59.999999Z")
        for bad in ["2026-11-29 12:00:00Z", "2026-11-29T12:00:00", "2026-02-29T00:00:00Z", "2026-11-31T00:00:00Z", "2026-11-29T24:00:00Z",
                    "2026-11-29T12:60:00Z", "2026-11-29T12:00:60Z", "2026-11-29T12:00:00.Z", "2026-11-29T12:00:00.1234567890Z",
                    "26-11-29T12:00:00Z", "2026-11-29T12:00:00+0100", "0000-01-01T00:00:00Z", "2026-11-29T12:00:00Zx", ""] {
            let error = codingError { _ = try decoder.decode(Date.self, from: .string(bad)) }
            #expect(error?.code == .invalidDate, "\(bad)")
        }
    }

    @Test("dates outside years 1-9999 do not encode")
    func dateRange() throws {
        #expect(codingError { _ = try encoder.encode(Date.distantFuture.addingTimeInterval(1e12)) }?.code == .invalidDate)
        #expect(codingError { _ = try encoder.encode(Date(timeIntervalSince1970: -62_135_596_801)) }?.code == .invalidDate)
        #expect(try encoder.encode(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00.000000Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59.000000Z")
    }

    @Test("integers: every width, out of Int64 refused on encode, out of the type refused on decode")
    func integers() throws {
        #expect(try encoder.encode(UInt64(Int64.max)) == .integer(.max))
        let error = codingError { _ = try encoder.encode(["big": UInt64.max]) }
        #expect(error?.code == .valueOutOfRange)
        #expect(error?.message == "big: 18446744073709551615 does not fit in Int64")
        #expect(codingError { _ = try encoder.encode([UInt(Int64.max) + 1]) }?.message == "[0]: 9223372036854775808 does not fit in Int64")
        #expect(try decoder.decode([Int8].self, from: [127, -128]) == [127, -128])
        let narrow = codingError { _ = try decoder.decode([String: UInt8].self, from: ["n": 256]) }
        #expect(narrow?.code == .valueOutOfRange)
        #expect(narrow?.message == "n: 256 does not fit in UInt8")
        #expect(codingError { _ = try decoder.decode(UInt.self, from: -1) }?.code == .valueOutOfRange)
        #expect(codingError { _ = try decoder.decode(Int.self, from: .decimal("1.5")) }?.message == "top level: expected an integer, found a decimal number")
    }

    @Test("floating point: whole values encode as integers, anything else is refused")
    func floats() throws {
        #expect(try encoder.encode(3.0) == 3)
        #expect(try encoder.encode(-0.0) == 0)
        #expect(try encoder.encode(Float(16_777_216)) == 16_777_216)
        #expect(try encoder.encode(9.223372036854775e18) == .integer(9_223_372_036_854_774_784))
        for bad in [1.5, 0.1, .nan, .infinity, -.infinity, 1e19] {
            let error = codingError { _ = try encoder.encode(["rate": bad]) }
            #expect(error?.code == .nonIntegralNumber, "\(bad)")
            #expect(error?.path.description == "rate")
        }
        #expect(try decoder.decode(Double.self, from: 42) == 42)
        #expect(try decoder.decode(Float.self, from: 16_777_216) == 16_777_216)
        #expect(codingError { _ = try decoder.decode(Float.self, from: 16_777_217) }?.code == .valueOutOfRange)
        #expect(codingError { _ = try decoder.decode(Double.self, from: .decimal("1.5")) }?.code == .typeMismatch)
    }

    @Test("Decimal is refused both ways")
    func decimalRefused() {
        #expect(codingError { _ = try encoder.encode(["d": Decimal(1)]) }?.code == .unsupportedType)
        #expect(codingError { _ = try decoder.decode(Decimal.self, from: .decimal("1.5")) }?.code == .unsupportedType)
    }

    @Test("decoding errors name the coding path")
    func decodingPaths() throws {
        var value = try encoder.encode(Invoice.sample)
        guard case .object(var members) = value, case .array(var items) = members["items"], case .object(var item) = items[1] else {
            Issue.record("unexpected shape")
            return
        }
        item["unit"] = ["amount": 1250, "currency": "EUR"]
        items[1] = .object(item)
        members["items"] = .array(items)
        value = .object(members)
        let mismatch = codingError { _ = try decoder.decode(Invoice.self, from: value) }
        #expect(mismatch?.code == .typeMismatch)
        #expect(mismatch?.message == "items[1].unit.amount: expected a string, found an integer")

        members["items"] = [["sku": "A", "quantity": 1, "unit": ["amount": "1", "currency": "EUR"], "tags": [], "status": "active"], ["quantity": 1]]
        let missing = codingError { _ = try decoder.decode(Invoice.self, from: .object(members)) }
        #expect(missing?.code == .missingKey)
        #expect(missing?.path.description == "items[1].sku")
        #expect(missing?.message == "items[1].sku: required key is missing")

        let badEnum = codingError { _ = try decoder.decode(LineItem.self, from: ["sku": "A", "quantity": 1, "unit": ["amount": "1", "currency": "EUR"], "tags": [], "status": "bogus"]) }
        #expect(badEnum?.code == .invalidValue)
        #expect(badEnum?.path.description == "status")

        #expect(codingError { _ = try decoder.decode([Int].self, from: ["a": 1]) }?.message == "top level: expected an array, found an object")
        #expect(codingError { _ = try decoder.decode(Money.self, from: [1]) }?.message == "top level: expected an object, found an array")
        #expect(codingError { _ = try decoder.decode(Tuple.self, from: [["label": "x"], [1]]) }?.message == "[1][1]: expected a value, found the end of the array")
    }

    @Test("null and missing keys both decode as nil for optionals")
    func optionals() throws {
        struct O: Codable, Equatable { var a: Int?; var b: String? }
        #expect(try decoder.decode(O.self, from: [:]) == O(a: nil, b: nil))
        #expect(try decoder.decode(O.self, from: ["a": nil, "b": "x"]) == O(a: nil, b: "x"))
        #expect(try encoder.encode(O(a: nil, b: "x")) == ["b": "x"])
        #expect(codingError { _ = try decoder.decode(O.self, from: ["a": "1"]) }?.message == "a: expected an integer, found a string")
    }

    @Test("class hierarchies through super encoders, nested and unkeyed containers")
    func containers() throws {
        let payer = Payer(id: 7, name: "Ada", address: ["1 Loop", "Zurich"])
        let value = try encoder.encode(payer)
        #expect(value == ["name": "Ada", "location": ["count": 2, "lines": ["1 Loop", "Zurich"]], "base": ["id": 7]])
        #expect(try decoder.decode(Payer.self, from: value) == payer)

        let tuple = Tuple(label: "t", pair: [1, -2], party: Party(id: 3))
        let tupleValue = try encoder.encode(tuple)
        #expect(tupleValue == [["label": "t"], [1, -2], ["id": 3]])
        #expect(try decoder.decode(Tuple.self, from: tupleValue) == tuple)

        struct Sub: Encodable {
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: NamedCodingKey.self)
                _ = c.superEncoder()
                try c.encode(1, forKey: NamedCodingKey("x"))
            }
        }
        #expect(try encoder.encode(Sub()) == ["super": [:], "x": 1], "an unused super encoder stands for an empty object")
    }

    @Test("userInfo reaches the coded types")
    func userInfo() throws {
        let key = CodingUserInfoKey(rawValue: "tenant")!
        struct Echo: Codable {
            var seen: String
            init(seen: String) { self.seen = seen }
            init(from decoder: any Decoder) throws { seen = decoder.userInfo[CodingUserInfoKey(rawValue: "tenant")!] as? String ?? "" }
            func encode(to encoder: any Encoder) throws {
                var c = encoder.singleValueContainer()
                try c.encode(encoder.userInfo[CodingUserInfoKey(rawValue: "tenant")!] as? String ?? "")
            }
        }
        #expect(try JSONValueEncoder(userInfo: [key: "acme"]).encode([Echo(seen: "")]) == ["acme"])
        #expect(try JSONValueDecoder(userInfo: [key: "acme"]).decode([Echo].self, from: [1]).first?.seen == "acme")
    }

    @Test("errors thrown by a type's own code pass through")
    func foreignErrors() {
        struct Boom: Error {}
        struct Explodes: Codable {
            init() {}
            init(from decoder: any Decoder) throws { throw Boom() }
            func encode(to encoder: any Encoder) throws { throw Boom() }
        }
        #expect(throws: Boom.self) { try encoder.encode([Explodes()]) }
        #expect(throws: Boom.self) { try decoder.decode([Explodes].self, from: [1]) }
    }
}

extension Invoice {
    static var sample: Invoice {
        var rng = SeededRandom(seed: 42)
        var invoice = CodableGen.invoice(&rng)
        invoice.items = [CodableGen.lineItem(&rng), CodableGen.lineItem(&rng)]
        return invoice
    }
}
