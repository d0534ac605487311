import Postgres

/// What a projection may touch while it applies events: its own tables, through the
/// transaction the projector opened (with `search_path` set to the target schema).
///
/// Writes whose results nobody reads go through `enqueue`: they are sent together, in
/// libpq's pipeline mode, when the batch ends or before the next read, so that folding an
/// event costs no network round trip of its own. `execute` runs at once (after sending
/// what is queued, so that it sees it) and returns rows.
public final class ProjectionContext: @unchecked Sendable {
    // Used by one thread, for the length of one batch.
    let connection: PostgresConnection
    private var pending: [(sql: String, parameters: [String?])] = []
    private var memo: [String: Any] = [:]

    init(connection: PostgresConnection) { self.connection = connection }

    /// Runs one statement now and returns its rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [any PostgresBindable] = []) throws -> PostgresResult {
        try flush()
        return try connection.query(sql, parameters)
    }

    /// Queues a write; it runs, in order, before the next `execute` or when the batch ends.
    public func enqueue(_ sql: String, _ parameters: [any PostgresBindable] = []) {
        pending.append((sql, parameters.map { $0.postgresText }))
    }

    /// A value remembered for the rest of the batch (a price, a funding history), so that
    /// folding the next event need not read it again. The projection keeps it current as
    /// it applies events that change it; it is forgotten when the batch ends.
    public func remembered<T>(_ key: String, as type: T.Type = T.self, orLoad load: () throws -> T) rethrows -> T {
        if let value = memo[key] as? T { return value }
        let value = try load()
        memo[key] = value
        return value
    }

    public func remember(_ key: String, _ value: Any?) { memo[key] = value }

    /// Sends what is queued.
    public func flush() throws {
        guard !pending.isEmpty else { return }
        let statements = pending
        pending.removeAll(keepingCapacity: true)
        try connection.pipeline(statements)
    }
}
