import EventStore

/// A deterministic fold of the log into tables of its own schema (DESIGN §3).
///
/// A projection's SQL uses unqualified table names: the projector sets `search_path` to
/// the live schema (`proj_<name>`) or to a rebuild schema, so the same code fills both.
/// It must not read the clock or anything but the event and its own tables, so that a
/// replay gives the same rows byte for byte.
public protocol Projection: Sendable {
    /// Lowercase letters, digits and underscores; the schema is `proj_<name>`.
    var name: String { get }
    /// Bumped whenever the fold or the tables change: a projector that finds an older
    /// version in the database rebuilds the projection from the log and swaps it in.
    var version: Int { get }
    /// Statements creating the projection's tables (unqualified names).
    var tablesSQL: [String] { get }
    /// Tables compared by `ledger replay --check` and the replay tests.
    var tables: [String] { get }
    /// Applies one event; throws to stop the projection (a poison event).
    func apply(_ event: RecordedEvent, in context: ProjectionContext) throws
}

extension Projection {
    /// The schema the service reads from.
    public var schema: String { "proj_" + name }
}
