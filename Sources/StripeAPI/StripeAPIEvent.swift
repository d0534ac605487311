import LedgerJSON

/// One event as List all events answers it: the whole `Event` object (`json`), and what
/// paging and recording need read from it. It is the object a webhook delivers, so what
/// the ledger missed can be recorded as if it had been delivered.
public struct StripeAPIEvent: Sendable, Equatable {
    /// `evt_…`: the same id the webhook carries.
    public var id: String
    /// `checkout.session.completed`, `invoice.paid`, …
    public var type: String
    /// When Stripe created the event, in Unix seconds.
    public var created: Int64
    public var livemode: Bool
    /// The whole event object, as answered.
    public var json: JSONValue

    public init(id: String, type: String, created: Int64, livemode: Bool, json: JSONValue) {
        self.id = id
        self.type = type
        self.created = created
        self.livemode = livemode
        self.json = json
    }

    /// The event read from one element of a list's `data`; nil when it is not an event
    /// (no `evt_` id, `type`, `created` or `livemode`).
    init?(json: JSONValue) {
        guard json["object"]?.stringValue == "event", let id = json["id"]?.stringValue, id.hasPrefix("evt_"),
              let type = json["type"]?.stringValue, !type.isEmpty, let created = json["created"]?.int64Value,
              let livemode = json["livemode"]?.boolValue else { return nil }
        self.init(id: id, type: type, created: created, livemode: livemode, json: json)
    }

    /// The event as JSON bytes (keys sorted): what `StripeEvent(body:)` of module `Stripe` reads.
    public var bytes: [UInt8] { json.compactBytes() }
}
