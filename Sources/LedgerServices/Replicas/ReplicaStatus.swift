import EventStore
import Foundation
import Postgres
import ProjectionEngine

/// A read replica as its last poll found it, and whether it may serve reads.
public struct ReplicaStatus: Sendable, Encodable {
    public var name: String
    public var address: String
    /// Whether reads go to it now.
    public var inRotation = false
    /// Its copy of the log's head.
    public var head: Int64?
    /// How many positions it is behind the primary's head (as the service last saw it).
    public var lagEvents: Int64?
    /// How long its replay is behind the WAL it received, in seconds; 0 when it has
    /// replayed everything it received.
    public var lagSeconds: Double?
    /// Replay paused (`pg_wal_replay_pause()`), e.g. for a consistent backup.
    public var replayPaused = false
    /// Each projection's position in its copy.
    public var projections: [String: Int64] = [:]
    /// Why it is out of rotation, if it is.
    public var detail: String?
    /// When a poll last succeeded; nil while it is unreachable.
    var lastSuccess: Date?

    enum CodingKeys: String, CodingKey {
        case name, address, head, projections, detail
        case inRotation = "in_rotation", lagEvents = "lag_events", lagMilliseconds = "lag_ms", replayPaused = "replay_paused"
    }

    /// The lag in whole milliseconds: JSON here carries no floating-point numbers.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(address, forKey: .address)
        try c.encode(inRotation, forKey: .inRotation)
        try c.encodeIfPresent(head, forKey: .head)
        try c.encodeIfPresent(lagEvents, forKey: .lagEvents)
        try c.encodeIfPresent(lagSeconds.map { Int64(($0 * 1000).rounded()) }, forKey: .lagMilliseconds)
        try c.encode(replayPaused, forKey: .replayPaused)
        try c.encode(projections, forKey: .projections)
        try c.encodeIfPresent(detail, forKey: .detail)
    }

    init(name: String, address: String) {
        self.name = name
        self.address = address
        detail = "not polled yet"
    }

    /// What one poll reads on the replica.
    struct Observed: Sendable {
        var inRecovery: Bool
        var head: Int64
        var lagSeconds: Double
        var replayPaused: Bool
        var projections: [String: Int64]

        static func read(on connection: PostgresConnection, projections all: [any Projection]) throws -> Observed {
            // Replay lag counts only while WAL received is waiting to be replayed: an idle
            // primary sends nothing, and its standby is then fully current, not "minutes behind".
            let row = try connection.query("""
                SELECT pg_is_in_recovery(),
                       CASE WHEN NOT pg_is_in_recovery() THEN 0
                            WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
                            ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0)::float8 END,
                       CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() ELSE false END
                """)[0]
            let checkpoints = try ProjectionSchema.progress(of: all.map(\.schema), on: connection)
            var positions: [String: Int64] = [:]
            for projection in all {
                if let checkpoint = checkpoints[projection.schema], checkpoint.failedPosition == nil, checkpoint.version == projection.version {
                    positions[projection.name] = checkpoint.position
                }
            }
            return Observed(inRecovery: row.bool(0) ?? false, head: try LogReader(connection).headPosition(), lagSeconds: row.string(1).flatMap(Double.init) ?? 0,
                            replayPaused: row.bool(2) ?? false, projections: positions)
        }
    }

    mutating func update(_ observed: Observed, primaryHead: Int64?, at instant: Date) {
        lastSuccess = instant
        head = observed.head
        lagEvents = primaryHead.map { max(0, $0 - observed.head) }
        lagSeconds = observed.lagSeconds
        replayPaused = observed.replayPaused
        projections = observed.projections
        detail = observed.inRecovery ? nil : "not a standby (promoted?): reads stay on the primary"
    }

    /// Whether it may serve a read of `projection` that must reflect `position`.
    func qualifies(projection: String, atLeast position: Int64, now: Date, settings: ReplicaSet.Settings) -> Bool {
        guard isCurrent(now: now, settings: settings), let reached = projections[projection] else { return false }
        return reached >= position
    }

    /// Reachable, a standby, and within the lag bounds.
    func isCurrent(now: Date, settings: ReplicaSet.Settings) -> Bool {
        guard let lastSuccess, now.timeIntervalSince(lastSuccess) < settings.downAfter, detail == nil else { return false }
        return (lagEvents ?? .max) <= settings.maxLagEvents && (lagSeconds ?? .infinity) <= settings.maxLagSeconds
    }

    /// As `/readyz` shows it, with `inRotation` and `detail` resolved at `now`.
    func resolved(now: Date, settings: ReplicaSet.Settings) -> ReplicaStatus {
        var out = self
        out.inRotation = isCurrent(now: now, settings: settings)
        if !out.inRotation && out.detail == nil {
            if let lastSuccess, now.timeIntervalSince(lastSuccess) >= settings.downAfter {
                out.detail = "no answer for \(Int(now.timeIntervalSince(lastSuccess))) s"
            } else {
                out.detail = "lags \(lagEvents ?? 0) events and \(lagSeconds ?? 0) s (bounds \(settings.maxLagEvents) events, \(settings.maxLagSeconds) s)"
            }
        }
        return out
    }
}
