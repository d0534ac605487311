import Foundation
import LedgerDomain

/// Decides, for the appends of one group commit in arrival order, which succeed and where
/// their events land, without I/O: the appender reads the head, the stream versions and
/// the known idempotency keys under the append lock, then hands them to the planner.
///
/// Each append is judged on the state left by the appends before it in the same batch,
/// exactly as if they had been committed one by one.
struct AppendPlanner {
    struct Row: Sendable {
        var texts: HashChain.Texts
        var eventID: UUID
        var occurredAt: Timestamp
        var requestHash: [UInt8]?
        var prevHash: [UInt8]
        var hash: [UInt8]
    }

    struct KnownKey: Sendable {
        var requestHash: [UInt8]
        var position: Int64
        var eventID: UUID
        var stream: String
        var streamVersion: Int64
    }

    enum Outcome: Sendable {
        case appended(AppendResult)
        /// The append-level key is in the log already: the original result is the events
        /// at these positions, which the appender reads back.
        case replay(first: Int64, count: Int)
        case failed(AppendError)
    }

    private(set) var headPosition: Int64
    private(set) var headHash: [UInt8]
    let recordedAt: Timestamp
    private let recordedAtText: String
    /// Stream versions as they stand after the appends planned so far.
    private(set) var versions: [String: Int64]
    private var keys: [String: KnownKey]
    private(set) var rows: [Row] = []

    init(headPosition: Int64, headHash: [UInt8], recordedAt: Timestamp, versions: [String: Int64], keys: [String: KnownKey]) {
        self.headPosition = headPosition
        self.headHash = headHash
        self.recordedAt = recordedAt
        self.recordedAtText = recordedAt.iso8601
        self.versions = versions
        self.keys = keys
    }

    mutating func plan(_ append: PreparedAppend) -> Outcome {
        if let key = append.appendKey, let known = keys[key] {
            guard known.requestHash == append.events[0].requestHash else { return .failed(conflict(key)) }
            return .replay(first: known.position, count: append.events.count)
        }
        // Keyed events already in the log are reported, not written again.
        var earlier: [Int: AppendedEvent] = [:]
        for (i, event) in append.events.enumerated() where append.appendKey == nil {
            guard let key = event.idempotencyKey, let known = keys[key] else { continue }
            guard known.requestHash == event.requestHash else { return .failed(conflict(key)) }
            earlier[i] = AppendedEvent(position: known.position, eventID: known.eventID, stream: known.stream,
                                       streamVersion: known.streamVersion, alreadyRecorded: true)
        }
        // Every event recorded already: the append writes nothing, and its expectations
        // guarded the writes that happened then (a usage retry after its month closed).
        if earlier.count == append.events.count {
            return .appended(AppendResult(events: (0..<append.events.count).map { earlier[$0]! }, replayed: true))
        }
        for (stream, expected) in append.expectedVersions {
            let current = versions[stream] ?? 0
            guard expected.admits(current: current) else {
                return .failed(AppendError(code: .wrongExpectedVersion,
                    message: "stream \(stream) is at version \(current), the append expected \(expected)",
                    stream: stream, actualVersion: current))
            }
        }
        for event in append.events {
            if let p = event.correctsPosition, p > headPosition {
                return .failed(AppendError(code: .invalidEvent, message: "corrects_position \(p) is not an earlier event of the log"))
            }
        }
        var results: [AppendedEvent] = []
        for (i, event) in append.events.enumerated() {
            if let known = earlier[i] { results.append(known); continue }
            let position = headPosition + 1
            let version = (versions[event.stream] ?? 0) + 1
            let texts = HashChain.Texts(
                position: position, eventID: event.eventIDText, stream: event.stream, streamVersion: version,
                type: event.type, occurredAt: event.occurredAtText ?? recordedAtText, recordedAt: recordedAtText,
                correctsPosition: event.correctsPosition, idempotencyKey: event.idempotencyKey,
                dataText: event.dataText, metadataText: event.metadataText)
            let hash = HashChain.hash(previous: headHash, texts: texts)
            rows.append(Row(texts: texts, eventID: event.eventID, occurredAt: event.occurredAt ?? recordedAt, requestHash: event.requestHash, prevHash: headHash, hash: hash))
            headPosition = position
            headHash = hash
            versions[event.stream] = version
            if let key = event.idempotencyKey, let requestHash = event.requestHash {
                keys[key] = KnownKey(requestHash: requestHash, position: position, eventID: event.eventID,
                                     stream: event.stream, streamVersion: version)
            }
            results.append(AppendedEvent(position: position, eventID: event.eventID, stream: event.stream,
                                         streamVersion: version, alreadyRecorded: false))
        }
        return .appended(AppendResult(events: results, replayed: false))
    }

    private func conflict(_ key: String) -> AppendError {
        AppendError(code: .idempotencyConflict,
                    message: "idempotency key \(key) was already used for a different request", key: key)
    }
}
