extension JSONValue {
    /// The text PostgreSQL 15 prints for this value as `jsonb` (`data::text`), byte for
    /// byte: what the hash chain hashes and an auditor recomputes in plain SQL.
    ///
    /// Exact only for values that pass `validateForJSONB()`; for others (a U+0000, a
    /// non-canonical decimal) it is deterministic but no server would print it. Use
    /// `writeCanonical(into:)` to check and write in one pass.
    public var canonicalText: String {
        writeLeniently { String(decoding: $0, as: UTF8.self) }
    }

    /// `canonicalText` as UTF-8 bytes.
    public var canonicalBytes: [UInt8] {
        writeLeniently { Array($0) }
    }

    /// Appends `canonicalBytes` to `buffer`, checking on the way what `validateForJSONB()`
    /// checks, so that the append hot path walks each value once and can reuse one buffer
    /// for many values. On error `buffer` is left as it was.
    public func writeCanonical(into buffer: inout [UInt8]) throws(JSONValidationError) {
        try ByteWriter.withWriter { (out: inout ByteWriter) throws(JSONValidationError) in
            try CanonicalWriter(strict: true).write(self, to: &out)
            out.withBytes { buffer.append(contentsOf: $0) }
        }
    }

    private func writeLeniently<R>(_ finish: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        ByteWriter.withWriter { (out: inout ByteWriter) in
            // A lenient writer cannot throw.
            try! CanonicalWriter(strict: false).write(self, to: &out)
            return out.withBytes(finish)
        }
    }
}
