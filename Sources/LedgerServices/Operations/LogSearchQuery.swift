import EventStore
import Foundation
import LedgerDomain
import ProjectionEngine
import Projections

/// What a search of the console finds for a text: an event by position or id, the payer,
/// project, organization, app, App Store subscription or stream of that name when it has
/// events, and the apps a user of that id bought from. Matches come in that order, a
/// stream found twice once.
public struct LogSearchQuery: LedgerQuery {
    public var text: String

    public init(_ text: String) { self.text = text }

    /// One thing the text names.
    public enum Match: Sendable, Equatable {
        /// The log holds an event at the position searched.
        case position(Int64)
        /// The event whose id was searched (`id` lowercased), at `position`.
        case event(id: String, position: Int64)
        /// A subject with events, whose timeline there is; `label` names it for a person
        /// ("payer p1", "App Store subscription 2000…").
        case subject(TimelineSubject, label: String)
        /// The user searched has `purchases` purchases with `app`.
        case purchases(app: String, count: Int64)
    }

    /// The catalog's purchases; the rest is the log's.
    public var projections: [any Projection] { [CatalogProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [Match]? {
        let q = text
        let found = try reads.connections.read { conn in
            var found: [Match] = []
            if let position = Int64(q), position > 0, try LogReader(conn).event(at: position) != nil {
                found.append(.position(position))
            }
            if let id = UUID(uuidString: q), let position = try LogReader(conn).position(ofEventID: id) {
                found.append(.event(id: q.lowercased(), position: position))
            }
            let transactions = AppStoreTransactionFacts.stream(originalTransactionID: q)
            let candidates: [(stream: String, subject: TimelineSubject, label: String)] = [
                (Pool.payer(q).ownerStream, .payer(q), "payer \(q)"),
                (Pool.project(q).ownerStream, .project(q), "project \(q)"),
                (OrganizationDecider.stream(q), .org(q), "organization \(q)"),
                (CatalogDecider.stream(q), .app(q), "app \(q)"),
                (transactions, .stream(transactions), "App Store subscription \(q)"),
                (q, .stream(q), "stream \(q)"),
            ]
            let existing = try LogReader(conn).existingStreams(candidates.map(\.stream))
            var seen = Set<String>()
            for candidate in candidates where existing.contains(candidate.stream) && seen.insert(candidate.stream).inserted {
                found.append(.subject(candidate.subject, label: candidate.label))
            }
            return found
        }
        return found + (try CatalogSnapshot.apps(withPurchasesBy: q, connections: reads.connections)).map { .purchases(app: $0.appID, count: $0.purchases) }
    }
}
