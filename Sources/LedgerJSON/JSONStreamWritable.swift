/// A value that writes itself with a `JSONStreamWriter`, skipping `Codable`'s walk.
public protocol JSONStreamWritable {
    func write(to writer: inout JSONStreamWriter)
}

extension JSONStreamWritable {
    /// The value's compact JSON.
    public func streamedJSON() -> [UInt8] {
        JSONStreamWriter.bytes { (w: inout JSONStreamWriter) in write(to: &w) }
    }
}
