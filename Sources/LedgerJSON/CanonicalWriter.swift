/// Writes a value as PostgreSQL 15's `jsonb` output function (`JsonbToCString`) would
/// print it: `", "` between elements and members, `": "` after keys, `[]` and `{}` when
/// empty, keys in `jsonb` order, strings per `escape_json`, numbers per `numeric_out`.
struct CanonicalWriter {
    /// Refuse values `jsonb` would refuse or print differently, instead of writing them.
    let strict: Bool

    func write(_ value: JSONValue, to out: inout ByteWriter, depth: Int = 0) throws(JSONValidationError) {
        switch value {
        case .null:
            out.append("null")
        case .bool(let b):
            out.append(b ? "true" : "false")
        case .integer(let n):
            JSONBytes.appendInteger(n, to: &out)
        case .decimal(let text):
            if strict { try JSONValue.checkDecimal(text, path: JSONPath()) }
            JSONBytes.appendRaw(text, to: &out)
        case .string(let s):
            try writeString(s, to: &out)
        case .array(let elements):
            if strict { try JSONValue.checkDepth(depth + 1) }
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ","), 0x20) }
                do { try write(element, to: &out, depth: depth + 1) } catch { throw error.prepending(.index(i)) }
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            if strict { try JSONValue.checkDepth(depth + 1) }
            out.append(UInt8(ascii: "{"))
            var first = true
            for index in JSONBytes.jsonbOrderedIndices(members) {
                let (key, member) = members[index]
                if !first { out.append(UInt8(ascii: ","), 0x20) }
                first = false
                do {
                    try writeString(key, to: &out)
                    out.append(UInt8(ascii: ":"), 0x20)
                    try write(member, to: &out, depth: depth + 1)
                } catch {
                    throw error.prepending(.key(key))
                }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private func writeString(_ s: String, to out: inout ByteWriter) throws(JSONValidationError) {
        let sawNUL = JSONBytes.appendQuoted(s, to: &out)
        if strict {
            if sawNUL { throw JSONValue.nulError(path: JSONPath()) }
            if s.utf8.count > JSONValue.maxStringBytes { throw JSONValue.stringTooLongError(s, path: JSONPath()) }
        }
    }
}
