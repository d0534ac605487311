import LedgerJSON

/// An event before the stand-in records it: what happened (`type`), to which object as it
/// now is (`object`), what an update changed (`previousAttributes`), when (`created`) and
/// the API request that caused it, if any. The scenarios make these; `record` gives them
/// an id and the event's envelope.
public struct StripeEventDraft: Sendable, Equatable {
    public var type: String
    /// `data.object`.
    public var object: JSONValue
    /// `data.previous_attributes`, for `*.updated` events.
    public var previousAttributes: JSONValue?
    /// Unix seconds.
    public var created: Int64
    /// `request.id` (`req_…`): nil for what Stripe did on its own (a renewal, an expiry).
    public var requestID: String?
    /// `request.idempotency_key`.
    public var idempotencyKey: String?

    public init(type: String, object: JSONValue, previousAttributes: JSONValue? = nil, created: Int64,
                requestID: String? = nil, idempotencyKey: String? = nil) {
        self.type = type
        self.object = object
        self.previousAttributes = previousAttributes
        self.created = created
        self.requestID = requestID
        self.idempotencyKey = idempotencyKey
    }

    /// `data.object.id`.
    public var objectID: String? { object["id"]?.stringValue }
}
