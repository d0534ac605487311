extension JSONValue: CustomStringConvertible {
    /// Standard JSON without any spaces, for APIs and logs. With `sortedKeys` (the
    /// default) object keys are in code point order, so equal values print equally;
    /// without it they come in the dictionary's order, which varies between runs.
    ///
    /// Strings escape `"`, `\` and control characters only; a `.decimal` is written as
    /// its text, so it must hold a JSON number (anything `validateForJSONB()` accepts).
    public func compactText(sortedKeys: Bool = true) -> String {
        write(TextWriter(keyOrder: sortedKeys ? .sorted : .unsorted, indent: nil)) { String(decoding: $0, as: UTF8.self) }
    }

    /// `compactText` as UTF-8 bytes.
    public func compactBytes(sortedKeys: Bool = true) -> [UInt8] {
        write(TextWriter(keyOrder: sortedKeys ? .sorted : .unsorted, indent: nil)) { Array($0) }
    }

    /// Indented JSON for people: one member or element per line, `indent` spaces per
    /// level, keys in code point order.
    public func prettyText(indent: Int = 2) -> String {
        write(TextWriter(keyOrder: .sorted, indent: max(0, indent))) { String(decoding: $0, as: UTF8.self) }
    }

    private func write<R>(_ writer: TextWriter, _ finish: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        ByteWriter.withWriter { (out: inout ByteWriter) in
            writer.write(self, to: &out)
            return out.withBytes(finish)
        }
    }

    /// `compactText()`.
    public var description: String { compactText() }
}
