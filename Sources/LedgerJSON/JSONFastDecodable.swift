/// A `Decodable` type that can also be read straight from a parsed value, skipping
/// `Codable`'s walk, for the few event types a projection folds by the million (a usage
/// event costs more to decode through `Codable` than to fold).
///
/// `init?(fastJSON:)` accepts only the type's ordinary shape and returns nil for anything
/// else; the caller then decodes with `Codable`, which decides (and names) every error.
/// So the fast path never accepts what `Codable` would refuse, and never refuses anything
/// itself: a property test holds each conformance to the same value as `Codable`.
public protocol JSONFastDecodable: Decodable {
    init?(fastJSON value: JSONValue)
}

extension JSONValueDecoder {
    /// `value` as `T`: through the fast path when it takes the value, else `Codable`.
    public func decodeFast<T: JSONFastDecodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        if let fast = T(fastJSON: value) { return fast }
        return try decode(T.self, from: value)
    }
}
