import LedgerJSON

/// One event a decider wants appended: its payload, its stream, and what makes appending
/// it safe to retry (an idempotency key) or to judge (the position it corrects).
public struct PendingEvent: Sendable, Hashable {
    public var stream: String
    public var type: String
    public var data: JSONValue
    /// Business time (Apple's `signedDate`, a measurement's time); the recording time when nil.
    public var occurredAt: Timestamp?
    /// Makes this one event idempotent within a larger append (a usage id, a transaction id).
    public var idempotencyKey: String?
    /// The position of the event this one corrects (J3).
    public var correctsPosition: Int64?

    public init<E: DomainEvent>(_ event: E, on stream: String, occurredAt: Timestamp? = nil, idempotencyKey: String? = nil,
                                correctsPosition: Int64? = nil) {
        self.stream = stream
        self.type = E.type
        // Domain events hold strings, integers, booleans and canonical amounts only:
        // encoding them cannot fail.
        self.data = try! JSONValueEncoder().encode(event)
        self.occurredAt = occurredAt
        self.idempotencyKey = idempotencyKey
        self.correctsPosition = correctsPosition
    }

    /// The payload decoded as `E`, for tests and receipts.
    public func decode<E: DomainEvent>(_ type: E.Type) throws -> E {
        try JSONValueDecoder().decode(E.self, from: data)
    }
}

/// What a decider accepted: events to append together, atomically, and the stream
/// versions the decision assumed (a stream that moved meanwhile makes the append a
/// conflict, and nothing is written).
public struct Decision: Sendable, Hashable {
    public var events: [PendingEvent]
    public var expectedVersions: [String: ExpectedVersion]
    /// Makes the whole append idempotent (a notification's UUID, a month's close).
    public var idempotencyKey: String?

    public init(_ events: [PendingEvent], expecting expectedVersions: [String: ExpectedVersion] = [:], idempotencyKey: String? = nil) {
        self.events = events
        self.expectedVersions = expectedVersions
        self.idempotencyKey = idempotencyKey
    }

    /// One event.
    public init(_ event: PendingEvent, expecting expectedVersions: [String: ExpectedVersion] = [:], idempotencyKey: String? = nil) {
        self.init([event], expecting: expectedVersions, idempotencyKey: idempotencyKey)
    }
}
