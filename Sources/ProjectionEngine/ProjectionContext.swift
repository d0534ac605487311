import Postgres

/// What a projection may touch while it folds a batch: its own tables, through the
/// transaction the projector opened (with `search_path` set to the target schema).
///
/// Writes whose results nobody reads go through `enqueue`: they are sent together, in
/// libpq's pipeline mode, before the next read or copy or when the batch ends, so that
/// they cost no network round trip of their own. `execute` runs at once (after sending
/// what is queued, so that it sees it) and returns rows; `copy` writes new rows.
public final class ProjectionContext: @unchecked Sendable {
    // Used by one thread, for the length of one batch.
    let connection: PostgresConnection
    private var pending: [(sql: String, parameters: [String?])] = []

    init(connection: PostgresConnection) { self.connection = connection }

    /// Runs one statement now and returns its rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [any PostgresBindable] = []) throws -> PostgresResult {
        try flush()
        return try connection.query(sql, parameters)
    }

    /// Queues a write; it runs, in order, before the next `execute` or `copy`, or when the
    /// batch ends.
    public func enqueue(_ sql: String, _ parameters: [any PostgresBindable] = []) {
        pending.append((sql, parameters.map { $0.postgresText }))
    }

    /// Queues a write whose parameters are already text.
    func enqueue(_ sql: String, texts parameters: [String?]) {
        pending.append((sql, parameters))
    }

    /// Queues a statement over a batch of rows, passed as one array per column (the SQL
    /// reads them with `unnest`); nothing is sent when there are no rows.
    public func enqueue(_ sql: String, rows: RowBuffer) {
        guard !rows.isEmpty else { return }
        enqueue(sql, rows.arrays)
    }

    /// Copies new rows into `table` (after what is queued); `columns` lists them in order.
    public func copy(into table: String, columns: [String], rows: RowBuffer) throws {
        guard !rows.isEmpty else { return }
        try flush()
        try connection.copyIn("COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN", rows: rows.copyRows)
    }

    /// Copies new rows written in COPY's binary format into `table` (after what is
    /// queued): for the tables a batch adds many rows to, whose numbers and times the
    /// server would otherwise parse from text one by one.
    public func copy(into table: String, columns: [String], binary rows: PostgresBinaryCopyRows) throws {
        guard rows.rowCount > 0 else { return }
        try flush()
        try connection.copyIn("COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN WITH (FORMAT binary)", rows: rows)
    }

    /// Sends what is queued.
    public func flush() throws {
        guard !pending.isEmpty else { return }
        let statements = pending
        pending.removeAll(keepingCapacity: true)
        try connection.pipeline(statements)
    }
}
