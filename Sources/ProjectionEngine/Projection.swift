import EventStore
import Postgres

/// A deterministic fold of the log into tables of its own schema (docs/architecture.md).
///
/// A projection's SQL uses unqualified table names: the projector sets `search_path` to
/// the live schema (`proj_<name>`) or to a rebuild schema, so the same code fills both.
/// It must not read the clock or anything but the events and its own tables, so that a
/// replay gives the same rows byte for byte, whatever the batches' boundaries.
public protocol Projection: Sendable {
    /// Lowercase letters, digits and underscores; the schema is `proj_<name>`.
    var name: String { get }
    /// Bumped whenever the fold or the tables change: a projector that finds an older
    /// version in the database rebuilds the projection from the log and swaps it in.
    var version: Int { get }
    /// Statements creating the projection's tables (unqualified names).
    var tablesSQL: [String] { get }
    /// Indexes a rebuild creates only after folding the bulk of the log (sorting once
    /// instead of inserting row by row); a fresh live schema creates them with its
    /// tables. The fold must not rely on them, not even to read: during a rebuild they do
    /// not exist yet.
    var deferredIndexesSQL: [String] { get }
    /// Tables compared by `ledger replay` and the replay tests.
    var tables: [String] { get }
    /// The event types the fold reads, or nil (the default) for every event; the fold
    /// leaves its tables as they are for any other type. A rebuild hands the projection
    /// only events of these types (its checkpoint still moves past the others), so that a
    /// projection folding a few types of a million events does not walk the rest on its
    /// own thread. The live projector hands it every event: each test that compares a
    /// rebuild with the live tables checks the declaration as well.
    var eventTypes: Set<String>? { get }
    /// Folds a batch of events, in log order, and writes what they change through
    /// `context`: the fold keeps the batch's state in memory, reads each row it needs
    /// once (the tables are as the previous batch left them), and writes each table once
    /// at the end. An event it cannot apply throws `PoisonEvent` (see `folding`), so that
    /// the projector stops the projection exactly in front of it.
    func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws
    /// Decodes a batch ahead of folding it, without the database, so that a rebuild can
    /// decode the next batch while this one is written; nil (the default) when `apply`
    /// decodes as it goes. A batch it cannot decode is left to `apply`, which names the event.
    func prepare(_ events: ArraySlice<RecordedEvent>) -> (any Sendable)?
    /// Folds a batch as `prepare` decoded it; `events` are the same events.
    func apply(prepared: any Sendable, events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws
}

/// A projection that keeps figures per account (balances, usage): a rebuild shows what it
/// changes of them, beside the rows, for an operator to check before it goes live.
public protocol AccountFigures: Projection {
    /// What differs, account by account, between the tables in `build` and in `live` (at
    /// the same position).
    func accountDifferences(build: String, live: String, on connection: PostgresConnection) throws -> [AccountDifference]
}

extension Projection {
    public var deferredIndexesSQL: [String] { [] }

    public var eventTypes: Set<String>? { nil }

    public func prepare(_ events: ArraySlice<RecordedEvent>) -> (any Sendable)? { nil }

    public func apply(prepared: any Sendable, events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        try apply(events, in: context)
    }

    /// The schema the service reads from.
    public var schema: String { "proj_" + name }

    /// Runs one event's fold, naming the event in whatever it throws.
    public func folding(_ event: RecordedEvent, _ body: () throws -> Void) throws {
        try folding(at: event.position, body)
    }

    /// Runs the fold of the event at `position`, naming it in whatever it throws.
    public func folding(at position: Int64, _ body: () throws -> Void) throws {
        do { try body() } catch let poison as PoisonEvent { throw poison } catch {
            throw PoisonEvent(position: position, underlying: error)
        }
    }
}

/// The event a batch's fold could not apply, and why.
public struct PoisonEvent: Error, Sendable, CustomStringConvertible {
    public var position: Int64
    public var underlying: any Error
    public init(position: Int64, underlying: any Error) {
        self.position = position
        self.underlying = underlying
    }
    public var description: String { String(describing: underlying) }
}
