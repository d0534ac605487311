import Postgres

/// What a projection may touch while it applies an event: its own tables, through the
/// transaction the projector opened (with `search_path` set to the target schema).
public struct ProjectionContext: Sendable {
    let connection: PostgresConnection

    init(connection: PostgresConnection) { self.connection = connection }

    /// Runs one statement with parameters.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [any PostgresBindable] = []) throws -> PostgresResult {
        try connection.query(sql, parameters)
    }
}
