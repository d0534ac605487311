/// Rows in COPY's text format (`COPY … FROM STDIN`): tab-separated fields, `\N` for NULL.
///
/// Where binary COPY needs each field encoded exactly as its column's type, text COPY lets
/// the server parse every field with its type's input function, so one writer serves any
/// column (`numeric`, `timestamptz`, `boolean`…). Projections use it to write a batch's
/// new rows in one statement.
public struct PostgresTextCopyRows: Sendable {
    public private(set) var bytes: [UInt8] = []
    public private(set) var rowCount = 0
    private var fieldsInRow = 0

    public init() {}

    /// Appends one row; each value is written with its `postgresText` (nil is NULL).
    public mutating func append(_ values: [any PostgresBindable]) {
        for value in values { field(value.postgresText) }
        endRow()
    }

    /// Appends one field of the current row.
    public mutating func field(_ text: String?) {
        if fieldsInRow > 0 { bytes.append(0x09) }
        fieldsInRow += 1
        guard let text else {
            bytes.append(contentsOf: [0x5C, 0x4E])  // \N
            return
        }
        var value = text
        value.withUTF8 { utf8 in
            // Runs without a byte to escape are copied whole: most fields (numbers, ids,
            // hex) have none, and a byte at a time cost more than the rest of the row.
            var start = 0
            for i in 0..<utf8.count {
                let escaped: UInt8
                switch utf8[i] {
                case 0x5C: escaped = 0x5C
                case 0x09: escaped = 0x74
                case 0x0A: escaped = 0x6E
                case 0x0D: escaped = 0x72
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
                bytes.append(0x5C)
                bytes.append(escaped)
                start = i + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
    }

    /// Ends the current row.
    public mutating func endRow() {
        bytes.append(0x0A)
        fieldsInRow = 0
        rowCount += 1
    }
}
