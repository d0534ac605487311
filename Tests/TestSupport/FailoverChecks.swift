import EventStore
import Postgres
import ProjectionEngine
import Projections
import Testing

/// What must hold on the new primary after a failover (docs/scaling.md), whoever promoted
/// it: `pg_ctl promote` (EventStoreTests) or Patroni (APITests).
public enum FailoverChecks {
    /// On `check` (a superuser connection to the test's database on the new primary): the
    /// log is gapless; every append of `load` was answered, and is there once, at the
    /// position it was answered with; the chain verifies.
    public static func logHolds(_ load: AppendLoad, on check: PostgresConnection,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let acked = load.acknowledged
        #expect(acked.count == load.attempted, "every append was answered in the end (errors while failing over: \(load.errors))",
                sourceLocation: sourceLocation)
        let span = try check.query("SELECT count(*), coalesce(min(position), 0), coalesce(max(position), 0) FROM events")[0]
        #expect(try span.requireInt64(0) == span.requireInt64(2) && span.requireInt64(1) == 1, "gapless on the new primary",
                sourceLocation: sourceLocation)
        let rows = try check.query("""
            SELECT idempotency_key, position, count(*) OVER (PARTITION BY data->>'writer', data->>'n')
            FROM events WHERE type = $1
            """, [load.eventType]).rows
        #expect(rows.count == acked.count, "each write once: nothing doubled", sourceLocation: sourceLocation)
        for row in rows {
            let key = try row.requireString(0)
            #expect(acked[key]?.position == (try row.requireInt64(1)), "\(key): the position answered is the position held",
                    sourceLocation: sourceLocation)
            #expect(try row.requireInt64(2) == 1, sourceLocation: sourceLocation)
        }
        let report = try ChainVerifier().verify(on: check)
        #expect(report.failure == nil, "\(String(describing: report.failure))", sourceLocation: sourceLocation)
    }

    /// Whether every projection of `projections` reaches the log's head on `check` within
    /// `timeout` seconds: the projector followed the log onto the new primary.
    public static func projectionsReachHead(_ projections: [any Projection], on check: PostgresConnection, timeout: Double = 30) throws -> Bool {
        let head = try LogReader(check).headPosition()
        return Poll.until(timeout: timeout) {
            projections.allSatisfy { projection in
                (try? ProjectionSchema.progress(projection.schema, on: check))??.position ?? 0 >= head
            }
        }
    }
}
