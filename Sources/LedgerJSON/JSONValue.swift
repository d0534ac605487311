/// A JSON document as a value: what events carry in `data` and `metadata`, and what the
/// OpenAPI document is built from.
///
/// Numbers are integers (`Int64`) or decimals kept as exact text, never `Double`: money
/// must not pass through a floating-point type (B2), and the text form of an event must
/// be reproducible byte for byte (the hash chain, docs/audit.md).
///
/// Equality is Swift's: strings compare by Unicode canonical equivalence, so two values
/// can be equal while their `canonicalBytes` differ ("é" precomposed or not). Compare
/// `canonicalBytes` where bytes matter (hashes, idempotency).
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// An integer that fits in `Int64`.
    case integer(Int64)
    /// Any other number, as exact decimal text in PostgreSQL's canonical form
    /// (see `JSONValue.decimal(fromLiteral:)`), e.g. `"1.50"` or `"100000000000000000000"`.
    /// Build it with that function: `validateForJSONB()` refuses other text.
    case decimal(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` of an array; nil for anything else or out of range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var int64Value: Int64? {
        if case .integer(let n) = self { return n }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var isNull: Bool { self == .null }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var members: [String: JSONValue] = [:]
        for (k, v) in elements { members[k] = v }
        self = .object(members)
    }
    public init(nilLiteral: ()) { self = .null }
}
