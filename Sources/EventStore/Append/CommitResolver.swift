import Foundation
import Postgres

/// Finds out whether a commit whose answer was lost happened (an append's outcome is
/// never misreported: docs/event-log.md, "Idempotency").
///
/// When the connection breaks after COMMIT was sent, the transaction may be committed,
/// rolled back, or still running in its server process (waiting for a synchronous
/// standby, say), where it would become visible later. So, once the database answers
/// again: the original server process is terminated if it still exists and waited for
/// until it is gone (a session may end its own role's processes), and only then is the
/// first event id the batch chose looked up. Present: committed; absent: never will be.
/// If the database does not answer within `timeout`, the outcome stays unknown.
struct CommitResolver {
    /// Which server process a connection talked to: a pid alone could be reused after a
    /// restart, the pid with its start time cannot.
    struct Backend: Sendable, Equatable {
        var pid: Int32
        var started: String

        static func current(on connection: PostgresConnection) throws -> Backend {
            let row = try connection.query("SELECT pg_backend_pid(), backend_start::text FROM pg_stat_activity WHERE pid = pg_backend_pid()")
            guard row.rowCount == 1 else {
                throw PostgresError(code: .unexpectedResult, message: "the session's own process is not in pg_stat_activity")
            }
            return Backend(pid: Int32(try row[0].requireInt64(0)), started: try row[0].requireString(1))
        }
    }

    enum Outcome {
        /// The events are in the log; the connection is fresh and usable.
        case committed(PostgresConnection)
        /// The transaction did not and cannot commit; writing it again is safe.
        case notCommitted(PostgresConnection)
        case unknown(String)
    }

    let conninfo: String
    var timeout: Double = 30

    func resolve(firstEvent: UUID?, backend: Backend?) -> Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        var pause = 0.05
        var lastError = "the database did not answer"
        while Date() < deadline {
            do {
                let connection = try PostgresConnection(conninfo: conninfo)
                if let backend { try waitUntilGone(backend, on: connection, deadline: deadline) }
                guard let firstEvent else { return .notCommitted(connection) }
                let found = try connection.query("SELECT 1 FROM event_ids WHERE event_id = $1", [firstEvent]).rowCount == 1
                return found ? .committed(connection) : .notCommitted(connection)
            } catch {
                lastError = "\(error)"
            }
            Thread.sleep(forTimeInterval: min(pause, max(0, deadline.timeIntervalSinceNow)))
            pause = min(pause * 2, 1)
        }
        return .unknown("the commit's answer was lost and the database did not answer within \(Int(timeout)) s (\(lastError))")
    }

    private func waitUntilGone(_ backend: Backend, on connection: PostgresConnection, deadline: Date) throws {
        let sql = "SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND backend_start::text = $2"
        var terminated = false
        while try connection.query(sql, [Int64(backend.pid), backend.started]).rowCount == 1 {
            if !terminated {
                _ = try connection.query("SELECT pg_terminate_backend($1)", [Int64(backend.pid)])
                terminated = true
            }
            guard Date() < deadline else {
                throw PostgresError(code: .unexpectedResult, message: "the original session (pid \(backend.pid)) did not end")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
