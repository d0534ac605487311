import Foundation
import Postgres

/// Waiting, from a command, until a projection has applied a position: for operator
/// commands that judge a request against the projection and must first see every event
/// recorded before they started. (The API never waits this way: see `ProjectionProgress`.)
public enum ProjectionWait {
    /// The projection stopped on a poison event: waiting for it is pointless.
    public struct Stopped: Error, CustomStringConvertible {
        public var code: String { "projection_stopped" }
        public var projection: String
        public var position: Int64
        public var error: String
        public var description: String { "the \(projection) projection stopped at position \(position): \(error)" }
    }

    /// Polls until `projection` exists and has applied `target`: true, or false after
    /// `timeout` seconds (a projection the projector has not created yet is waited for
    /// too); one that stopped throws.
    public static func until(_ projection: any Projection, reaches target: Int64, pool: PostgresPool,
                             timeout: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let checkpoint = try pool.read { try ProjectionSchema.checkpoint(projection.schema, on: $0) }
            if let failed = checkpoint?.failedPosition {
                throw Stopped(projection: projection.name, position: failed, error: checkpoint?.error ?? "")
            }
            if let checkpoint, checkpoint.position >= target { return true }
            if Date() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
