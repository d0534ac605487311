import LedgerDomain
import LedgerJSON

/// One of Stripe's events as its webhook delivers it (the `Event` object): what happened
/// (`type`), to which object (`data.object`, as it was then), when (`created`), and the
/// event's `id`, the same on every redelivery, which the ledger records it under once.
public struct StripeEvent: Sendable, Equatable {
    /// `evt_…`.
    public var id: String
    /// `checkout.session.completed`, `customer.subscription.updated`, `invoice.paid`, …
    public var type: String
    /// When Stripe created the event (Unix seconds): the order Stripe does not promise is
    /// decided from the objects' own times and versions, this among them.
    public var created: Timestamp
    /// Live mode (`true`) or test mode.
    public var livemode: Bool
    /// The API version the object is rendered in (`api_version`), when Stripe says.
    public var apiVersion: String?
    /// The connected account it happened on (`account`), for Connect platforms.
    public var account: String?
    /// `data.object`: the object as it was when the event happened.
    public var object: JSONValue
    /// `data.previous_attributes`: what an `*.updated` event changed, before.
    public var previousAttributes: JSONValue?

    /// The longest `id` accepted: Stripe's ids are far shorter, and a key must stay one.
    public static let maximumIDLength = 255

    /// Reads the event from the webhook's raw body; a body that is not one is refused with
    /// `event_malformed`, naming what is wrong.
    public init(body: [UInt8]) throws(StripeWebhookError) {
        guard let json = try? JSONValue.parse(body), json.objectValue != nil else {
            throw StripeWebhookError(.eventMalformed, "the body is not a JSON object")
        }
        func string(_ name: String) throws(StripeWebhookError) -> String {
            guard let value = json[name]?.stringValue, !value.isEmpty else {
                throw StripeWebhookError(.eventMalformed, "the event has no \(name) (a non-empty string)")
            }
            return value
        }
        let id = try string("id")
        guard id.hasPrefix("evt_"), id.utf8.count <= Self.maximumIDLength, id.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw StripeWebhookError(.eventMalformed, "the event's id must be evt_ and at most \(Self.maximumIDLength) printable characters")
        }
        let type = try string("type")
        guard type.utf8.count <= 100, type.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) || $0 == 0x2e || $0 == 0x5f || ($0 >= 0x30 && $0 <= 0x39) }) else {
            throw StripeWebhookError(.eventMalformed, "the event's type must be lowercase words joined by . and _")
        }
        guard let seconds = json["created"]?.int64Value, seconds > 0, let created = Timestamp(microseconds: seconds.multipliedReportingOverflow(by: 1_000_000).partialValue),
              seconds < 253_402_300_799 else {
            throw StripeWebhookError(.eventMalformed, "the event's created must be Unix seconds")
        }
        guard let livemode = json["livemode"]?.boolValue else {
            throw StripeWebhookError(.eventMalformed, "the event has no livemode (true or false)")
        }
        guard let object = json["data"]?["object"], object.objectValue != nil else {
            throw StripeWebhookError(.eventMalformed, "the event has no data.object")
        }
        self.id = id
        self.type = type
        self.created = created
        self.livemode = livemode
        self.apiVersion = json["api_version"]?.stringValue
        self.account = json["account"]?.stringValue
        self.object = object
        self.previousAttributes = json["data"]?["previous_attributes"].flatMap { $0.objectValue != nil ? $0 : nil }
    }
}
