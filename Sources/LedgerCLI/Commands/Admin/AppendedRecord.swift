import Foundation
import LedgerJSON

/// One event an operator command appended, as the log recorded it.
struct AppendedRecord {
    var type: String
    var stream: String
    var streamVersion: Int64
    var position: Int64
    var eventID: UUID
    var data: JSONValue
    var correctsPosition: Int64?
    /// True when an idempotent append found the event already in the log and wrote nothing.
    var alreadyRecorded: Bool

    var json: JSONValue {
        var members: [String: JSONValue] = [
            "type": .string(type), "stream": .string(stream), "stream_version": .integer(streamVersion),
            "position": .integer(position), "event_id": .string(eventID.uuidString.lowercased()), "data": data,
            "already_recorded": .bool(alreadyRecorded),
        ]
        if let correctsPosition { members["corrects_position"] = .integer(correctsPosition) }
        return .object(members)
    }

    var text: [String] {
        var head = alreadyRecorded ? "already recorded (nothing appended): " : "appended "
        head += "\(type) to \(stream): position \(position), stream version \(streamVersion), event \(eventID.uuidString.lowercased())"
        if let correctsPosition { head += ", corrects position \(correctsPosition)" }
        return [head, "  data \(data.compactText())"]
    }
}

extension AppendedRecord {
    /// The events the log holds under an append's idempotency key (the first carries it),
    /// as a command's receipt shows them; nil when the key is not in the log.
    static func recorded(key: String, session: AdminSession) throws -> [AppendedRecord]? {
        let events = try session.services.store.log.events(appendedUnder: key)
        guard !events.isEmpty else { return nil }
        return try events.map { e in
            AppendedRecord(type: e.type, stream: e.stream, streamVersion: e.streamVersion, position: e.position,
                           eventID: e.eventID, data: try e.data(), correctsPosition: e.correctsPosition, alreadyRecorded: true)
        }
    }
}
