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

    /// Applies `events` (all after the schema's checkpoint, in order) and moves the
    /// checkpoint to `end` when given (a batch's end, past events of types the projection
    /// does not fold: `Projection.eventTypes`), else to the last event. A poison event
    /// leaves the projection at the event before it, marked failed, and nothing after it
    /// applied; the caller's transaction stays usable. `prepared` is what the projection's
    /// `prepare` made of exactly these events, if it was called (the fast path uses it).
    func apply(_ events: ArraySlice<RecordedEvent>, from checkpoint: Int64, through end: Int64? = nil, prepared: (any Sendable)? = nil,
               on connection: PostgresConnection) throws -> Outcome {
        let quoted = connection.quoteIdentifier(schema)
        guard let first = events.first, let last = events.last else {
            guard let end, end > checkpoint else { return .applied(through: checkpoint) }
            // The search path first, on its own: the pipeline's statements are prepared before it runs.
            try connection.query("SET LOCAL search_path TO \(quoted), public")
            try connection.pipeline(checkpointStatements(end) + [("SET LOCAL search_path TO public", [])])
            return .applied(through: end)
        }
        // The checkpoint only moves forward, over events in the log's order: a batch that
        // starts at or before it would fold events twice, and every figure after them.
        precondition(first.position > checkpoint && last.position >= first.position,
                     "\(projection.name): a batch of positions \(first.position)…\(last.position) after the checkpoint \(checkpoint)")
        let through = max(end ?? last.position, last.position)
        // Few round trips per projection and batch: a projector at the head applies many
        // small batches, and every projection pays these for each of them.
        try connection.pipeline([("SAVEPOINT projection_apply", []), ("SET LOCAL search_path TO \(quoted), public", [])])
        // The fast path resets the search path in its last round trip; any other path here.
        var searchPathReset = false
        defer { if !searchPathReset { _ = try? connection.query("SET LOCAL search_path TO public") } }
        func restart() throws {
            try connection.query("ROLLBACK TO SAVEPOINT projection_apply")
            try connection.query("SET LOCAL search_path TO \(quoted), public")
        }
        // The fast path: the whole batch folded in memory, each table written once.
        var poison: PoisonEvent?
        do {
            try fold(events, prepared: prepared, on: connection,
                     then: checkpointStatements(through) + [("RELEASE SAVEPOINT projection_apply", []),
                                                            ("SET LOCAL search_path TO public", [])])
            searchPathReset = true
            return .applied(through: through)
        } catch let error as PostgresError where error.code == .connectionLost || !connection.isOpen {
            throw error
        } catch let located as PoisonEvent {
            poison = located
            try restart()
        } catch {
            try restart()
        }
        // The fold named the event it could not apply: apply what comes before it, and stop.
        if let poison, let index = events.firstIndex(where: { $0.position == poison.position }) {
            do {
                try fold(events[..<index], on: connection)
                return try stop(at: events[index], error: poison, after: index == events.startIndex ? checkpoint : events[index - 1].position,
                                on: connection)
            } catch let error as PostgresError where error.code == .connectionLost || !connection.isOpen {
                throw error
            } catch {
                try restart()
            }
        }
        // A write failed (only the server knew): apply the batch again one event at a time
        // to find the event, so that the projection stops exactly in front of it.
        var appliedThrough = checkpoint
        for index in events.indices {
            try connection.query("SAVEPOINT projection_event")
            do {
                try fold(events[index...index], on: connection)
                try connection.query("RELEASE SAVEPOINT projection_event")
                appliedThrough = events[index].position
            } catch let error as PostgresError where error.code == .connectionLost || !connection.isOpen {
                throw error
            } catch {
                try connection.query("ROLLBACK TO SAVEPOINT projection_event")
                return try stop(at: events[index], error: error, after: appliedThrough, on: connection)
            }
        }
        // Every event applied on its own: the failure was not reproducible (it should be).
        try moveCheckpoint(to: through, on: connection)
        try connection.query("RELEASE SAVEPOINT projection_apply")
        return .applied(through: through)
    }

    /// Folds events into the projection, skipping (and recording) those set aside.
    /// `then` runs after the fold's writes, in the same round trip.
    private func fold(_ events: ArraySlice<RecordedEvent>, prepared: (any Sendable)? = nil,
                      on connection: PostgresConnection, then: [(sql: String, parameters: [String?])] = []) throws {
        guard !events.isEmpty else {
            if !then.isEmpty { try connection.pipeline(then) }
            return
        }
        try ProjectionContext.folding(on: connection) { context in
            if setAside.isEmpty {
                if let prepared {
                    try projection.apply(prepared: prepared, events: events, in: context)
                } else {
                    try projection.apply(events, in: context)
                }
            } else {
                var kept: [RecordedEvent] = []
                kept.reserveCapacity(events.count)
                for event in events {
                    guard let entry = setAside[event.position] else { kept.append(event); continue }
                    context.enqueue("""
                        INSERT INTO _set_aside (position, event_type, error, set_aside_at, reason) VALUES ($1, $2, $3, $4, $5)
                        ON CONFLICT DO NOTHING
                        """, [event.position, event.type, entry.event.error, entry.position, entry.reason])
                }
                if !kept.isEmpty { try projection.apply(kept[...], in: context) }
            }
            for statement in then { context.enqueue(statement.sql, texts: statement.parameters) }
        }
    }

    /// Marks the projection stopped in front of `event`, at `appliedThrough`.
    private func stop(at event: RecordedEvent, error: any Error, after appliedThrough: Int64,
                      on connection: PostgresConnection) throws -> Outcome {
        let failure = ProjectionFailure(projection: projection.name, position: event.position, eventType: event.type,
                                        message: String(describing: error))
        try connection.query("UPDATE _checkpoint SET position = $1, failed_position = $2, error = $3",
                             [appliedThrough, event.position, failure.message])
        try connection.query("RELEASE SAVEPOINT projection_apply")
        return .failed(failure, appliedThrough: appliedThrough)
    }

    /// Moves the checkpoint and, for the live schema, tells listeners (`ledger_projections`,
    /// payload `<name>:<position>`, delivered when the caller commits) so that caches of the
    /// projection's tables reload without polling.
    private func moveCheckpoint(to position: Int64, on connection: PostgresConnection) throws {
        try connection.pipeline(checkpointStatements(position))
    }

    private func checkpointStatements(_ position: Int64) -> [(sql: String, parameters: [String?])] {
        let moved = ("UPDATE _checkpoint SET position = $1", [String(position) as String?])
        // A rebuild's schema says nothing until it is swapped in (`RebuiltProjections`
        // notifies then): the payload names the projection, and a reader waiting for its own
        // write would take the build's position for the live tables' and read them too soon.
        guard schema == projection.schema else { return [moved] }
        return [moved, ("SELECT pg_notify($1, $2)", [Projector.notificationChannel, "\(projection.name):\(position)"])]
    }
}
