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
    /// The table of the COPY left open by `stream`, if one is.
    private var streaming: String?

    init(connection: PostgresConnection) { self.connection = connection }

    /// Runs `body` with a context on `connection` and sends what it left queued. If it
    /// throws, a COPY it left open is aborted first, so that the connection can roll back.
    static func folding(on connection: PostgresConnection, _ body: (ProjectionContext) throws -> Void) throws {
        let context = ProjectionContext(connection: connection)
        do {
            try body(context)
            try context.flush()
        } catch {
            context.abandonStream()
            throw error
        }
    }

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
    /// server would otherwise parse from text one by one. For rows `stream` has sent part
    /// of, this sends the rest and ends the COPY.
    public func copy(into table: String, columns: [String], binary rows: PostgresBinaryCopyRows) throws {
        var rows = rows
        try stream(into: table, columns: columns, binary: &rows)
        if streaming == table { try endStream() }
    }

    /// Sends the rows gathered in `rows` now, in a COPY into `table` left open, so that the
    /// server inserts them while the fold makes the next ones (for the table a batch adds
    /// a row to for nearly every event); `rows` is left empty. `copy(into:columns:binary:)`
    /// of the same table sends the rest and ends it; any other statement ends it first
    /// (the next rows then open a COPY of their own).
    public func stream(into table: String, columns: [String], binary rows: inout PostgresBinaryCopyRows) throws {
        var data = rows.drain()
        guard data.count > (data.starts(with: PostgresBinaryCopyRows.header) ? PostgresBinaryCopyRows.header.count : 0) else { return }
        // Writes queued since go first, as for any statement: the COPY under way ends.
        if streaming != table || !pending.isEmpty {
            try flush()
            try connection.beginCopyIn("COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN WITH (FORMAT binary)")
            streaming = table
            // What follows an ended stream starts without the stream's header.
            if !data.starts(with: PostgresBinaryCopyRows.header) { data = PostgresBinaryCopyRows.header + data }
        }
        try connection.sendCopyData(data)
    }

    /// Ends the COPY `stream` left open, if any.
    private func endStream() throws {
        guard streaming != nil else { return }
        streaming = nil
        try connection.sendCopyData(PostgresBinaryCopyRows.trailer)
        try connection.endCopyIn()
    }

    /// Aborts the COPY `stream` left open, if any (a fold that failed): nothing of it is
    /// inserted, and the caller's transaction is left in error for it to roll back.
    func abandonStream() {
        guard streaming != nil else { return }
        streaming = nil
        _ = try? connection.endCopyIn(failure: "the fold failed")
    }

    /// Ends the COPY `stream` left open, if any, and sends what is queued.
    public func flush() throws {
        try endStream()
        guard !pending.isEmpty else { return }
        let statements = pending
        pending.removeAll(keepingCapacity: true)
        try connection.pipeline(statements)
    }
}
