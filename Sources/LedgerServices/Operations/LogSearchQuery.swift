import EventStore
import Foundation
import LedgerDomain
import ProjectionEngine
import Projections

/// What the log itself answers of a search: the event at a position, the event of an id,
/// and the stream of that exact name. The records of the projections (payers, users,
/// entries…) are `DirectorySearchQuery`'s, which asks this query first.
public struct LogSearchQuery: LedgerQuery {
    public var text: String

    public init(_ text: String) { self.text = text }

    /// One thing of the log the text names.
    public enum Match: Sendable, Equatable {
        /// The log holds an event at the position searched.
        case position(Int64)
        /// The event whose id was searched (`id` lowercased), at `position`.
        case event(id: String, position: Int64)
        /// The stream of that name has events; its latest is at `lastPosition`.
        case stream(String, lastPosition: Int64)
    }

    public var projections: [any Projection] { [] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [Match]? {
        let q = text
        return try reads.connections.read { conn in
            var found: [Match] = []
            if let position = Int64(q), position > 0, try LogReader(conn).event(at: position) != nil {
                found.append(.position(position))
            }
            if let id = UUID(uuidString: q), let position = try LogReader(conn).position(ofEventID: id) {
                found.append(.event(id: q.lowercased(), position: position))
            }
            if let head = try LogReader(conn).streamHead(q) {
                found.append(.stream(q, lastPosition: head.position))
            }
            return found
        }
    }
}
