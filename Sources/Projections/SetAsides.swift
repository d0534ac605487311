import EventStore
import LedgerJSON
import LedgerDomain
import Postgres

/// The events operators set aside, by projection (`projection.event_set_aside`), read
/// from the log itself so that the live projector and a replay skip the same ones.
struct SetAsides: Sendable {
    struct Entry: Sendable, Equatable {
        var event: EventSetAside
        /// Where the set-aside was recorded, and why (the operator's reason).
        var position: Int64
        var reason: String
    }

    /// By projection name, then by the position set aside.
    private(set) var entries: [String: [Int64: Entry]] = [:]

    static func load(on connection: PostgresConnection) throws -> SetAsides {
        var found = SetAsides()
        for row in try connection.query("""
            SELECT position, data::text, coalesce(metadata->>'reason', '') FROM events
            WHERE type = $1 ORDER BY position
            """, [EventSetAside.type]).rows {
            let event = try JSONValueDecoder().decode(EventSetAside.self, from: try JSONValue.parse(try row.requireString(1)))
            found.entries[event.projection, default: [:]][event.position] = Entry(
                event: event, position: try row.requireInt64(0), reason: try row.requireString(2))
        }
        return found
    }

    func forProjection(_ name: String) -> [Int64: Entry] { entries[name] ?? [:] }
}
