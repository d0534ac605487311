import LedgerJSON

/// Who did it and in answer to what: stored in the event's `metadata` column.
public struct EventMetadata: Sendable, Hashable {
    public var actor: Actor
    /// The HTTP request id or command invocation id that caused the append.
    public var requestID: String?
    /// The event or command this one was caused by.
    public var causationID: String?
    /// Groups every event of one business flow (e.g. all events of one notification).
    public var correlationID: String?
    /// Why an operator did it; required for operator acts.
    public var reason: String?
    /// Anything else worth keeping beside the event (kept out of `data`, which is the fact itself).
    public var extra: [String: JSONValue]

    public init(actor: Actor, requestID: String? = nil, causationID: String? = nil, correlationID: String? = nil,
                reason: String? = nil, extra: [String: JSONValue] = [:]) {
        self.actor = actor
        self.requestID = requestID
        self.causationID = causationID
        self.correlationID = correlationID
        self.reason = reason
        self.extra = extra
    }

    /// The JSON object written to the log.
    public var json: JSONValue {
        var members = extra
        members["actor"] = ["kind": .string(actor.kind.rawValue), "id": .string(actor.id)]
        if let requestID { members["request_id"] = .string(requestID) }
        if let causationID { members["causation_id"] = .string(causationID) }
        if let correlationID { members["correlation_id"] = .string(correlationID) }
        if let reason { members["reason"] = .string(reason) }
        return .object(members)
    }

    /// Reads metadata back from the log; unknown members land in `extra`.
    public init?(json: JSONValue) {
        guard var members = json.objectValue,
              let kindText = members["actor"]?["kind"]?.stringValue, let kind = Actor.Kind(rawValue: kindText),
              let id = members["actor"]?["id"]?.stringValue else { return nil }
        actor = Actor(kind, id)
        requestID = members["request_id"]?.stringValue
        causationID = members["causation_id"]?.stringValue
        correlationID = members["correlation_id"]?.stringValue
        reason = members["reason"]?.stringValue
        for key in ["actor", "request_id", "causation_id", "correlation_id", "reason"] { members[key] = nil }
        extra = members
    }
}

/// The party that caused an event.
public struct Actor: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// A person running `ledger admin …`.
        case `operator`
        /// A signed-in person of the product (an organization's administrator).
        case person
        /// One of the platform's services (metering, the API itself).
        case service
        /// Apple, through a verified signed payload.
        case apple
        /// The payment processor (Stripe), through a verified signed event.
        case processor
        /// The ledger itself (benchmarks, demo data, migrations of data).
        case system
    }

    public var kind: Kind
    public var id: String

    public init(_ kind: Kind, _ id: String) {
        self.kind = kind
        self.id = id
    }

    public var description: String { "\(kind.rawValue):\(id)" }
}
