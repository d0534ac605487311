import Observability
import Postgres

/// Waiting, from a command, until a projection has applied a position: for operator
/// commands that judge a request against the projection and must first see every event
/// recorded before they started. The wait listens to the projector's progress
/// (`ProjectionProgress`), as the API's parked requests do.
public enum ProjectionWait {
    /// The projection stopped on a poison event: waiting for it is pointless.
    public struct Stopped: Error, Sendable, CustomStringConvertible {
        public var code: String { "projection_stopped" }
        public var projection: String
        public var position: Int64
        public var error: String
        public var description: String { "the \(projection) projection stopped at position \(position): \(error)" }
    }

    /// Waits until `projection` exists and has applied `target`: true, or false after
    /// `timeout` seconds (a projection the projector has not created yet is waited for
    /// too); one that stopped throws `Stopped`.
    public static func until(_ projection: any Projection, reaches target: Int64, connections: PostgresPool,
                             timeout: Double) throws -> Bool {
        let progress = ProjectionProgress(conninfo: connections.directConninfo, projections: [projection],
                                          logger: Logger(minimumLevel: .error))
        progress.start()
        defer { progress.stop(waitingForExit: false) }
        return try progress.waitBlocking(for: projection.name, position: target, timeout: timeout)
    }
}
