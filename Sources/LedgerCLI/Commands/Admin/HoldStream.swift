import EventStore
import LedgerDomain

/// A hold as its own stream in the log tells it: `hold.placed`, then at most one
/// `hold.captured` or `hold.released`. Settling reads the log rather than the projection,
/// since the stream alone decides, and the append expects it at version 1.
enum HoldStream {
    static func name(_ id: String) -> String { "hold-" + id }

    /// The hold, or a refusal naming why it cannot be settled.
    static func openHold(_ id: String, session: AdminSession) throws -> HoldPlaced {
        let events = try session.services.store.readStream(name(id))
        guard let first = events.first, first.type == HoldPlaced.type else {
            throw AdminError(.notFound, "hold \(id) does not exist")
        }
        if events.count > 1 { throw alreadySettled(id, by: events[1]) }
        return try first.decode(HoldPlaced.self)
    }

    static func alreadySettled(_ id: String, by event: RecordedEvent) -> AdminError {
        let verb = event.type == HoldCaptured.type ? "captured" : "released"
        return AdminError(.alreadySettled, "hold \(id) was already \(verb) (position \(event.position)): a hold is settled once")
    }

    /// Settles the hold with `event`, expecting its stream at exactly version 1.
    static func settle(_ id: String, with event: EventToAppend, session: AdminSession) throws -> [AppendedRecord] {
        try session.append([event], expecting: [name(id): .exactly(1)]) { error in
            guard error.code == .wrongExpectedVersion, error.stream == name(id) else { return nil }
            // Settled by someone else between the read and the append.
            if let settled = try? session.services.store.readStream(name(id)).dropFirst().first {
                return alreadySettled(id, by: settled)
            }
            return AdminError(.alreadySettled, "hold \(id) was settled meanwhile")
        }
    }
}
