import Crypto
import Foundation
import LedgerDomain
import LedgerJSON

/// An append checked and serialised on the caller's thread, so that the single appender
/// thread only orders, chains and writes. `EventStore.submit(_:completion:)` makes one
/// from each request; a caller that holds its appends before sending them (a batch
/// importer, `ledger bench append`) can make them ahead with `init(_:)` and submit them
/// later. Ids the request leaves out are chosen here.
public struct PreparedAppend: Sendable {
    struct Event: Sendable {
        var eventID: UUID
        /// Rendered here, on the caller's thread, so that the appender does not.
        var eventIDText: String
        var occurredAtText: String?
        var stream: String
        var type: String
        var dataText: String
        var metadataText: String
        var occurredAt: Timestamp?
        var correctsPosition: Int64?
        var idempotencyKey: String?
        /// Hash of what the key stands for: the whole request for an append-level key
        /// (on the first event), this event for an event-level key.
        var requestHash: [UInt8]?
    }

    var events: [Event]
    var expectedVersions: [(stream: String, expected: ExpectedVersion)]
    /// The append-level key, if any (also set on `events[0]`).
    var appendKey: String?

    static let maximumEvents = 5_000
    static let maximumPayloadBytes = 1 << 20

    /// Checks `request` and renders its events as the log stores them; a refusal here is
    /// the one `submit` would report, and appended nothing.
    public init(_ request: AppendRequest) throws(AppendError) {
        guard !request.events.isEmpty else { throw invalid("an append needs at least one event") }
        guard request.events.count <= Self.maximumEvents else {
            throw invalid("an append may carry at most \(Self.maximumEvents) events, got \(request.events.count)")
        }
        if let key = request.idempotencyKey {
            try Self.checkKey(key)
            if request.events.contains(where: { $0.idempotencyKey != nil }) {
                throw invalid("an append-level idempotency key cannot be combined with per-event keys")
            }
        }
        var keys = Set<String>()
        var ids = Set<UUID>()
        var prepared: [Event] = []
        prepared.reserveCapacity(request.events.count)
        for (index, event) in request.events.enumerated() {
            let e = try Self.prepare(event, index: index)
            if let key = e.idempotencyKey, !keys.insert(key).inserted {
                throw invalid("event \(index) repeats the idempotency key \(key) of an earlier event of the same append")
            }
            if !ids.insert(e.eventID).inserted { throw invalid("event \(index) repeats the event id \(e.eventID)") }
            prepared.append(e)
        }
        var expected: [(String, ExpectedVersion)] = []
        for (stream, version) in request.expectedVersions.sorted(by: { $0.key < $1.key }) {
            guard Self.isValidStream(stream) else { throw invalid("expected version names an invalid stream \(stream.debugDescription)") }
            if case .exactly(let v) = version, v < 0 { throw invalid("expected version of \(stream) is negative") }
            expected.append((stream, version))
        }
        if let key = request.idempotencyKey {
            prepared[0].idempotencyKey = key
            prepared[0].requestHash = Self.requestHash(prepared, expected: expected, includeIDs: request.events.map { $0.eventID != nil })
        }
        self.events = prepared
        self.expectedVersions = expected
        self.appendKey = request.idempotencyKey
    }

    private static func prepare(_ event: EventToAppend, index: Int) throws(AppendError) -> Event {
        guard isValidStream(event.stream) else {
            throw invalid("event \(index): stream \(event.stream.debugDescription) must be 1-200 characters of A-Z a-z 0-9 . _ : @ + = - and start with a letter or digit")
        }
        guard isValidType(event.type) else {
            throw invalid("event \(index): type \(event.type.debugDescription) must be 1-100 characters of A-Z a-z 0-9 . _ : - and start with a letter or digit")
        }
        guard case .object = event.data else { throw invalid("event \(index): data must be a JSON object") }
        let metadata = event.metadata.json
        let dataText: String
        let metadataText: String
        do {
            // Checks and writes PostgreSQL's jsonb text in one pass.
            var buffer: [UInt8] = []
            try event.data.writeCanonical(into: &buffer)
            dataText = String(decoding: buffer, as: UTF8.self)
            buffer.removeAll(keepingCapacity: true)
            try metadata.writeCanonical(into: &buffer)
            metadataText = String(decoding: buffer, as: UTF8.self)
        } catch {
            throw invalid("event \(index): \(error)")
        }
        guard dataText.utf8.count + metadataText.utf8.count <= maximumPayloadBytes else {
            throw invalid("event \(index): data and metadata exceed \(maximumPayloadBytes) bytes")
        }
        if let p = event.correctsPosition, p <= 0 { throw invalid("event \(index): corrects_position must be positive") }
        if let key = event.idempotencyKey { try checkKey(key) }
        let eventID = event.eventID ?? SecureRandom.timeOrderedUUID()
        var e = Event(eventID: eventID, eventIDText: eventID.lowercaseText, occurredAtText: event.occurredAt?.iso8601,
                      stream: event.stream, type: event.type, dataText: dataText,
                      metadataText: metadataText, occurredAt: event.occurredAt, correctsPosition: event.correctsPosition,
                      idempotencyKey: event.idempotencyKey, requestHash: nil)
        if e.idempotencyKey != nil {
            e.requestHash = requestHash([e], expected: [], includeIDs: [event.eventID != nil])
        }
        return e
    }

    /// What "the same request" means for idempotency: streams, types, data, business
    /// time, corrections, caller-chosen event ids and expectations; not metadata, which
    /// legitimately differs between a request and its retry (request id, for one).
    static func requestHash(_ events: [Event], expected: [(String, ExpectedVersion)], includeIDs: [Bool]) -> [UInt8] {
        var hasher = SHA256Hasher()
        hasher.update("ledger-append-v1\n")
        for (event, includeID) in zip(events, includeIDs) {
            hasher.update("event\n\(event.stream)\n\(event.type)\n")
            hasher.update(event.occurredAt.map { String($0.microseconds) } ?? "-")
            hasher.update("\n")
            hasher.update(event.correctsPosition.map(String.init) ?? "-")
            hasher.update("\n")
            hasher.update(includeID ? event.eventIDText : "-")
            hasher.update("\n")
            hasher.update(event.dataText)
            hasher.update("\n")
        }
        for (stream, version) in expected {
            hasher.update("expect\n\(stream)\n\(version)\n")
        }
        return hasher.finalize()
    }

    static func checkKey(_ key: String) throws(AppendError) {
        guard (1...200).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw invalid("idempotency key must be 1-200 printable ASCII characters without spaces")
        }
    }

    static func isValidStream(_ s: String) -> Bool { matches(s, max: 200, extra: Array("._:@+=-".utf8)) }
    static func isValidType(_ s: String) -> Bool { matches(s, max: 100, extra: Array("._:-".utf8)) }

    private static func matches(_ s: String, max: Int, extra: [UInt8]) -> Bool {
        let u = s.utf8
        guard let first = u.first, u.count <= max, isAlnum(first) else { return false }
        return u.allSatisfy { isAlnum($0) || extra.contains($0) }
    }

    private static func isAlnum(_ c: UInt8) -> Bool {
        (48...57).contains(c) || (65...90).contains(c) || (97...122).contains(c)
    }
}

private func invalid(_ message: String) -> AppendError {
    AppendError(code: .invalidEvent, message: message)
}
