/// A `Decodable` type that can also be read straight from a parsed value, or from its
/// text, skipping `Codable`'s walk, for the few event types a projection folds by the
/// million (a usage event costs more to decode through `Codable` than to fold, and a
/// replay more to parse into a value tree than to decode).
///
/// `init?(fastJSON:)` and `init?(fastJSONText:)` accept only the type's ordinary shape and
/// return nil for anything else; the caller then decodes with `Codable`, which decides
/// (and names) every error. So the fast paths never accept what `Codable` would refuse,
/// and never refuse anything themselves: a property test holds each conformance to the
/// same value as `Codable`.
public protocol JSONFastDecodable: Decodable {
    init?(fastJSON value: JSONValue)
    /// From the payload's text, without a value tree (`JSONFlatObject`); nil by default.
    init?(fastJSONText text: String)
}

extension JSONFastDecodable {
    public init?(fastJSONText text: String) { return nil }
}

extension JSONValueDecoder {
    /// `value` as `T`: through the fast path when it takes the value, else `Codable`.
    public func decodeFast<T: JSONFastDecodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        if let fast = T(fastJSON: value) { return fast }
        return try decode(T.self, from: value)
    }

    /// `text` as `T`: straight from the text when the fast path takes it, else parsed and
    /// decoded as `decodeFast(_:from:)` does (the same value, the same errors).
    public func decodeFast<T: JSONFastDecodable>(_ type: T.Type, fromText text: String) throws -> T {
        if let fast = T(fastJSONText: text) { return fast }
        return try decodeFast(T.self, from: try JSONValue.parse(text))
    }
}
