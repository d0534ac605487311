import EventStore
import Postgres

/// Applies events to one projection inside a transaction the caller opened, and moves
/// its checkpoint in the same transaction (shared by the live projector and replay).
struct ProjectionApplier {
    let projection: any Projection
    let schema: String
    /// Events an operator set aside for this projection: skipped, and recorded in `_set_aside`.
    var setAside: [Int64: SetAsides.Entry] = [:]

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
        try connection.query("SAVEPOINT projection_apply")
        try connection.query("SET LOCAL search_path TO \(quoted), public")
        defer { _ = try? connection.query("SET LOCAL search_path TO public") }
        // The fast path: the whole batch with its writes pipelined.
        do {
            let context = ProjectionContext(connection: connection)
            for event in events { try applyOrSkip(event, in: context) }
            try context.flush()
            try moveCheckpoint(to: last.position, on: connection)
            try connection.query("RELEASE SAVEPOINT projection_apply")
            return .applied(through: last.position)
        } catch let error as PostgresError where error.code == .connectionLost || !connection.isOpen {
            throw error
        } catch {
            // Something failed, perhaps only when the queued writes were sent: undo the
            // batch and apply it again one event at a time to find the poison event, so
            // that the projection stops exactly in front of it.
            try connection.query("ROLLBACK TO SAVEPOINT projection_apply")
            try connection.query("SET LOCAL search_path TO \(quoted), public")
        }
        var appliedThrough = checkpoint
        for event in events {
            try connection.query("SAVEPOINT projection_event")
            do {
                let context = ProjectionContext(connection: connection)
                try applyOrSkip(event, in: context)
                try context.flush()
                try connection.query("RELEASE SAVEPOINT projection_event")
                appliedThrough = event.position
            } catch let error as PostgresError where error.code == .connectionLost || !connection.isOpen {
                throw error
            } catch {
                try connection.query("ROLLBACK TO SAVEPOINT projection_event")
                let failure = ProjectionFailure(projection: projection.name, position: event.position, eventType: event.type,
                                                message: String(describing: error))
                try connection.query("UPDATE _checkpoint SET position = $1, failed_position = $2, error = $3",
                                     [appliedThrough, event.position, failure.message])
                try connection.query("RELEASE SAVEPOINT projection_apply")
                return .failed(failure, appliedThrough: appliedThrough)
            }
        }
        // Every event applied on its own: the failure was not reproducible (it should be).
        try moveCheckpoint(to: last.position, on: connection)
        try connection.query("RELEASE SAVEPOINT projection_apply")
        return .applied(through: last.position)
    }

    private func applyOrSkip(_ event: RecordedEvent, in context: ProjectionContext) throws {
        guard let entry = setAside[event.position] else {
            try projection.apply(event, in: context)
            return
        }
        context.enqueue("""
            INSERT INTO _set_aside (position, event_type, error, set_aside_at, reason) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT DO NOTHING
            """, [event.position, event.type, entry.event.error, entry.position, entry.reason])
    }

    /// Moves the checkpoint and tells listeners (`ledger_projections`, payload
    /// `<name>:<position>`, delivered when the caller commits) so that caches of the
    /// projection's tables reload without polling.
    private func moveCheckpoint(to position: Int64, on connection: PostgresConnection) throws {
        try connection.query("UPDATE _checkpoint SET position = $1", [position])
        try connection.query("SELECT pg_notify($1, $2)", [AllProjections.notificationChannel, "\(projection.name):\(position)"])
    }
}
