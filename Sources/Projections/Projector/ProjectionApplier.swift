import EventStore
import Postgres

/// Applies events to one projection inside a transaction the caller opened, and moves
/// its checkpoint in the same transaction (shared by the live projector and replay).
struct ProjectionApplier {
    let projection: any Projection
    let schema: String

    enum Outcome {
        case applied(through: Int64)
        case failed(ProjectionFailure, appliedThrough: Int64)
    }

    /// Applies `events` (all after the schema's checkpoint, in order). A poison event
    /// leaves the projection at the event before it, marked failed, and nothing after it
    /// applied; the caller's transaction stays usable.
    func apply(_ events: ArraySlice<RecordedEvent>, from checkpoint: Int64, on connection: PostgresConnection) throws -> Outcome {
        guard let last = events.last else { return .applied(through: checkpoint) }
        let quoted = connection.quoteIdentifier(schema)
        let context = ProjectionContext(connection: connection)
        try connection.query("SAVEPOINT projection_apply")
        try connection.query("SET LOCAL search_path TO \(quoted), public")
        defer { _ = try? connection.query("SET LOCAL search_path TO public") }
        var failure: (index: Int, error: any Error)?
        for (offset, event) in events.enumerated() {
            do {
                try projection.apply(event, in: context)
            } catch let error as PostgresError where error.code == .connectionLost || !connection.isOpen {
                throw error
            } catch {
                failure = (offset, error)
                break
            }
        }
        guard let failure else {
            try connection.query("UPDATE _checkpoint SET position = $1", [last.position])
            try connection.query("RELEASE SAVEPOINT projection_apply")
            return .applied(through: last.position)
        }
        // Undo the half-applied batch, then re-apply what came before the poison event so
        // that the projection stops exactly in front of it.
        try connection.query("ROLLBACK TO SAVEPOINT projection_apply")
        try connection.query("SET LOCAL search_path TO \(quoted), public")
        let good = events.prefix(failure.index)
        for event in good { try projection.apply(event, in: context) }
        let poison = events[events.startIndex + failure.index]
        let appliedThrough = good.last?.position ?? checkpoint
        let reported = ProjectionFailure(projection: projection.name, position: poison.position, eventType: poison.type,
                                         message: String(describing: failure.error))
        try connection.query("UPDATE _checkpoint SET position = $1, failed_position = $2, error = $3",
                             [appliedThrough, poison.position, reported.message])
        try connection.query("RELEASE SAVEPOINT projection_apply")
        return .failed(reported, appliedThrough: appliedThrough)
    }
}
