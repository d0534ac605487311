import EventStore
import LedgerDomain
import LedgerJSON

/// A message's JSON, the same bytes on every attempt and every replay: a function of the
/// message's row, its event as its subject may see it (`EventDisclosure`), and the
/// subject's state as of that event.
public enum WebhookMessageBody {
    /// `sequence` is the subscription's number for it (a webhook) or the subject's (the feed).
    public static func render(id: String, type: String, subject: String, sequence: Int64, event: RecordedEvent,
                              state: JSONValue) throws -> [UInt8] {
        try object(id: id, type: type, subject: subject, sequence: sequence, event: event, state: state).compactBytes()
    }

    /// The message as a JSON value (the pull feed lists them).
    public static func object(id: String, type: String, subject: String, sequence: Int64, event: RecordedEvent,
                              state: JSONValue) throws -> JSONValue {
        let data = try event.data()
        let shown = WebhookSubject(subject).map { EventDisclosure.data(ofType: event.type, stream: event.stream, data, for: .tenant($0)) } ?? .object([:])
        return .object([
            "id": .string(id), "type": .string(type), "subject": .string(subject), "sequence": .integer(sequence),
            "position": .integer(event.position), "created_at": .string(event.recordedAt.iso8601),
            "occurred_at": .string(event.occurredAt.iso8601),
            // Cut to the subject's own (`EventDisclosure`): a funded project never sees its siblings.
            "event": .object(["type": .string(event.type), "stream": .string(event.stream), "data": shown]),
            "state": state,
        ])
    }
}
