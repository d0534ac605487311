/// `stripe.event_recorded`, on `app-<id>-stripe`: one of Stripe's events for an app's web
/// checkout, verified and recorded once under its `id` (a redelivery appends nothing). The
/// typed `fact` is what the web checkout's rules read; `created` and the objects' own times
/// decide the order, never the position (Stripe does not promise one).
public struct StripeEventRecorded: DomainEvent {
    public static let type = "stripe.event_recorded"
    public var appID: String
    /// `evt_…`.
    public var eventID: String
    /// Stripe's type: `customer.subscription.updated`, …
    public var eventType: String
    /// When Stripe created the event.
    public var created: Timestamp
    public var livemode: Bool
    /// The connected account (`account`), for Connect platforms.
    public var account: String?
    /// The user the event names (the checkout's `client_reference_id`, else the object's
    /// `metadata.user_id`); nil when it names none: the user is then found through the
    /// Stripe ids it shares with a fact that names one, or it is listed to operators.
    public var userID: String?
    public var fact: StripeFact

    enum CodingKeys: String, CodingKey {
        case created, livemode, account, fact
        case appID = "app_id", eventID = "event_id", eventType = "event_type", userID = "user_id"
    }

    public init(appID: String, eventID: String, eventType: String, created: Timestamp, livemode: Bool, account: String?,
                userID: String?, fact: StripeFact) {
        self.appID = appID
        self.eventID = eventID
        self.eventType = eventType
        self.created = created
        self.livemode = livemode
        self.account = account
        self.userID = userID
        self.fact = fact
    }
}
