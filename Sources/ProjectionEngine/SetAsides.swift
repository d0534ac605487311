import EventStore
import LedgerDomain
import LedgerJSON
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

    /// Those of the live log, and of `archives` (files of `ledger archive`) when a rebuild
    /// starts from them: a set-aside recorded before the archived positions ended applies
    /// to the replay all the same.
    static func load(on connection: PostgresConnection, archives: [String] = []) throws -> SetAsides {
        var found = SetAsides()
        for path in archives {
            for event in try ArchiveReader.events(ofType: EventSetAside.type, in: path) {
                found.add(try event.decode(EventSetAside.self), at: event.position, reason: (try? event.metadata())??.reason ?? "")
            }
        }
        for event in try LogReader(connection).events(ofType: EventSetAside.type) {
            found.add(try event.decode(EventSetAside.self), at: event.position, reason: (try? event.metadata())??.reason ?? "")
        }
        return found
    }

    private mutating func add(_ event: EventSetAside, at position: Int64, reason: String) {
        entries[event.projection, default: [:]][event.position] = Entry(event: event, position: position, reason: reason)
    }

    func forProjection(_ name: String) -> [Int64: Entry] { entries[name] ?? [:] }
}
