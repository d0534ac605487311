import LedgerDomain
import LedgerJSON
import Postgres
import ProjectionEngine

/// The reads of the web checkout projection: a user's facts, found through the Stripe
/// ids they share, and the facts that reach no user.
public struct WebCheckoutReadModel: Sendable {
    public let connections: PostgresPool

    public init(connections: PostgresPool) { self.connections = connections }

    /// At most this many facts are folded for one user: far past any real history.
    public static let maximumFacts = 5_000
    /// Rounds of following shared ids (a dispute → its charge → its invoice → the
    /// subscription → the checkout that named the user is four).
    static let maximumRounds = 6

    /// Where the projection stands; nil before the projector created it.
    public func progress() throws -> ProjectionSchema.Progress? {
        try connections.read { try ProjectionSchema.progress(WebCheckoutProjection().schema, on: $0) }
    }

    /// Every fact of `app` linked to `user`: those that name the user, and those that
    /// share a Stripe id (a customer, a subscription, a payment) with one already found,
    /// to a fixpoint. Empty when the user has none (or the projection does not exist yet).
    public func facts(app: String, user: String) throws -> [StripeEventRecorded] {
        try connections.read { conn in
            guard try conn.query("SELECT to_regclass('proj_web.facts') IS NOT NULL")[0].bool(0) == true else { return [] }
            var found: [String: StripeEventRecorded] = [:]
            var known: Set<String> = []
            func take(_ rows: [PostgresRow]) throws -> [String] {
                var frontier: [String] = []
                for row in rows {
                    let id = try row.requireString(0)
                    guard found[id] == nil else { continue }
                    found[id] = try JSONValueDecoder().decode(StripeEventRecorded.self, from: JSONValue.parse(try row.requireString(1)))
                    for link in (row.string(2).map(Self.parseArray) ?? []) where known.insert(link).inserted { frontier.append(link) }
                }
                return frontier
            }
            var frontier = try take(conn.query("""
                SELECT event_id, event, links::text FROM proj_web.facts WHERE app_id = $1 AND user_id = $2 ORDER BY position LIMIT $3
                """, [app, user, Int64(Self.maximumFacts)]).rows)
            var round = 0
            while !frontier.isEmpty && round < Self.maximumRounds && found.count < Self.maximumFacts {
                round += 1
                frontier = try take(conn.query("""
                    SELECT event_id, event, links::text FROM proj_web.facts WHERE app_id = $1 AND links && $2::text[]
                    ORDER BY position LIMIT $3
                    """, [app, PostgresTextArray(frontier), Int64(Self.maximumFacts - found.count)]).rows)
            }
            return Array(found.values)
        }
    }

    /// What `user` holds on `app`'s web checkout: their facts folded, keeping what is
    /// theirs (a fact found through a shared id but naming another user is not).
    public func holdings(app: String, user: String) throws -> WebHoldings {
        let all = WebHoldings.fold(try facts(app: app, user: user))
        return WebHoldings(subscriptions: all.subscriptions.filter { $0.userID == nil || $0.userID == user },
                           payments: all.payments.filter { $0.userID == nil || $0.userID == user })
    }

    /// Facts of `app` (all apps when nil) that name no user and share no Stripe id with a
    /// fact that does, newest first, at most `limit`: what operators must attribute.
    public func unattributed(app: String?, limit: Int = 100) throws -> [(position: Int64, event: StripeEventRecorded)] {
        try connections.read { conn in
            guard try conn.query("SELECT to_regclass('proj_web.facts') IS NOT NULL")[0].bool(0) == true else { return [] }
            return try conn.query("""
                SELECT f.position, f.event FROM proj_web.facts f
                WHERE f.user_id IS NULL AND f.kind <> 'seen' AND ($1::text IS NULL OR f.app_id = $1)
                  AND NOT EXISTS (
                    SELECT 1 FROM proj_web.facts g WHERE g.app_id = f.app_id AND g.links && f.links
                      AND (g.user_id IS NOT NULL OR EXISTS (
                        SELECT 1 FROM proj_web.facts h WHERE h.app_id = g.app_id AND h.user_id IS NOT NULL AND h.links && g.links)))
                ORDER BY f.position DESC LIMIT $2
                """, [app, Int64(limit)]).rows.map { row in
                (try row.requireInt64(0), try JSONValueDecoder().decode(StripeEventRecorded.self, from: JSONValue.parse(try row.requireString(1))))
            }
        }
    }

    /// `{a,b}` as PostgreSQL prints a `text[]` of ids (which hold no quotes, commas or spaces).
    static func parseArray(_ text: String) -> [String] {
        text.trimmingPrefix("{").split(separator: "}").first.map { $0.split(separator: ",").map(String.init) } ?? []
    }
}
