import LedgerDomain

/// One atomic append: every event is written, or none is.
public struct AppendRequest: Sendable, Hashable {
    public var events: [EventToAppend]
    /// Per stream; streams not named are not checked.
    public var expectedVersions: [String: ExpectedVersion]
    /// Makes the whole append idempotent: the same key with the same request answers the
    /// original result and appends nothing; with a different request it is a conflict.
    /// Cannot be combined with per-event keys.
    public var idempotencyKey: String?

    public init(events: [EventToAppend], expectedVersions: [String: ExpectedVersion] = [:], idempotencyKey: String? = nil) {
        self.events = events
        self.expectedVersions = expectedVersions
        self.idempotencyKey = idempotencyKey
    }

    public init(_ event: EventToAppend, expected: ExpectedVersion = .any, idempotencyKey: String? = nil) {
        self.init(events: [event], expectedVersions: expected == .any ? [:] : [event.stream: expected], idempotencyKey: idempotencyKey)
    }
}
