/// Writes standard JSON for people and APIs: compact (no spaces) or indented.
struct TextWriter {
    enum KeyOrder {
        /// Code point order (bytewise over UTF-8): stable across runs and platforms.
        case sorted
        /// The dictionary's own order: cheapest, but it changes from run to run.
        case unsorted
    }

    let keyOrder: KeyOrder
    /// Spaces per level, or nil for compact output.
    let indent: Int?

    func write(_ value: JSONValue, to out: inout ByteWriter, level: Int = 0) {
        switch value {
        case .null, .bool, .integer, .decimal:
            // Scalars print the same in every style.
            try! CanonicalWriter(strict: false).write(value, to: &out)
        case .string(let s):
            JSONBytes.appendQuoted(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(to: &out, level: level + 1)
                write(element, to: &out, level: level + 1)
            }
            if !elements.isEmpty { newline(to: &out, level: level) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            var first = true
            for index in ordered(members) {
                let (key, member) = members[index]
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                newline(to: &out, level: level + 1)
                JSONBytes.appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(0x20) }
                write(member, to: &out, level: level + 1)
            }
            if !members.isEmpty { newline(to: &out, level: level) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private func ordered(_ members: [String: JSONValue]) -> [Dictionary<String, JSONValue>.Index] {
        switch keyOrder {
        case .sorted: return JSONBytes.bytewiseOrderedIndices(members)
        case .unsorted: return Array(members.indices)
        }
    }

    private func newline(to out: inout ByteWriter, level: Int) {
        guard let indent else { return }
        out.reserve(1 + indent * level)
        out.appendReserved(0x0A)
        for _ in 0..<(indent * level) { out.appendReserved(0x20) }
    }
}
