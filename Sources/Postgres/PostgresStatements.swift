/// How a connection runs a statement with parameters.
///
/// A connection straight to PostgreSQL prepares each statement once per session, by name,
/// and runs its plan again and again. Behind a pooler in transaction mode (PgBouncer before
/// 1.21, which does not track protocol-level prepared statements) a session is not the
/// client's: a name prepared on one server connection is missing on the next, or names
/// another client's statement there. Such a connection sends each statement as the
/// unnamed one instead, parsed, bound and run in the one round trip that ends in its Sync,
/// which the pooler keeps on one server connection (docs/scaling.md, "PgBouncer").
public enum PostgresStatements: Sendable, Equatable {
    /// Prepared once per session, by name, and reused (the default).
    case prepared
    /// The unnamed statement, parsed and planned at every execution.
    case unnamed
}
