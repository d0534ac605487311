extension JSONValue {
    /// Parses one JSON text (RFC 8259, UTF-8) the way PostgreSQL's `jsonb` reads it.
    ///
    /// Strict: no comments, trailing commas, NaN/Infinity, leading zeros, byte order mark,
    /// unescaped control characters, invalid UTF-8 or unpaired surrogate escapes. A number
    /// becomes `.integer` when its value as `jsonb` prints it is a whole number without a
    /// fraction that fits `Int64` (so `1e3` is `.integer(1000)` but `1.0` is
    /// `.decimal("1.0")`), else `.decimal` with that printed text. When a key repeats,
    /// the last value wins unless `options` say otherwise.
    ///
    /// `\u0000` is valid JSON and parses unless `options.allowsNUL` is false, but `jsonb`
    /// refuses it: see `validateForJSONB()`.
    public static func parse(_ bytes: some Collection<UInt8>, options: JSONParseOptions = .default) throws(JSONParseError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer: buffer, options: options) }
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer: buffer, options: options) }
        }.get()
    }

    /// Parses one JSON text; see `parse(_:options:)` for bytes.
    public static func parse(_ text: String, options: JSONParseOptions = .default) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer: buffer, options: options) }
        }.get()
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>, options: JSONParseOptions) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(input: buffer, options: options)
        return try parser.parseDocument()
    }
}
