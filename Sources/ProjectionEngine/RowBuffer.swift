import Postgres

/// Rows a batch gathers and writes in one statement when it ends: `COPY` for new rows,
/// or one array per column for an `unnest` upsert or update, so that a table costs one
/// round trip per batch however many events touched it.
public struct RowBuffer: Sendable {
    public let columnCount: Int
    private var columns: [[String?]]
    public private(set) var count = 0

    public init(columns: Int) {
        columnCount = columns
        self.columns = Array(repeating: [], count: columns)
    }

    public var isEmpty: Bool { count == 0 }

    /// Appends one row; `values` has one value per column.
    public mutating func append(_ values: [any PostgresBindable]) {
        precondition(values.count == columnCount, "a row of \(values.count) values for \(columnCount) columns")
        for (i, value) in values.enumerated() { columns[i].append(value.postgresText) }
        count += 1
    }

    /// One array parameter per column, for `unnest($1::text[], $2::bigint[], …)`.
    public var arrays: [any PostgresBindable] { columns.map { PostgresTextArray($0) } }

    /// The rows in COPY's text format.
    public var copyRows: PostgresTextCopyRows {
        var rows = PostgresTextCopyRows()
        for r in 0..<count {
            for c in 0..<columnCount { rows.field(columns[c][r]) }
            rows.endRow()
        }
        return rows
    }
}
