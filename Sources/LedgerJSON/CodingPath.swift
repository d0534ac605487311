/// The key of an array element in a coding path.
struct IndexCodingKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.index = intValue }
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// A key given by name, e.g. `super` for `superEncoder()`.
struct NamedCodingKey: CodingKey {
    let stringValue: String
    init(_ name: String) { self.stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
    var intValue: Int? { nil }

    static let `super` = NamedCodingKey("super")
}

extension JSONPath {
    /// The path a coding path denotes: array positions become indices, other keys names.
    init(codingPath: [any CodingKey]) {
        self.init(codingPath.map { key in
            if let index = key as? IndexCodingKey { return .index(index.index) }
            // Foundation and the standard library spell array positions "Index N".
            if let i = key.intValue, key.stringValue == "Index \(i)" { return .index(i) }
            return .key(key.stringValue)
        })
    }
}

extension JSONValue {
    /// The kind of value, as an error message names it: "an integer", "an object", ….
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .decimal: return "a decimal number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
