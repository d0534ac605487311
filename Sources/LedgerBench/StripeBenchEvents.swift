import LedgerJSON
import StripeStandIn
import WebhookSigning

/// The events `ledger-bench stripe` sends: whole customers' stories from `StripeScenario`
/// (the stand-in's realistic objects, API version 2024-06-20), each event in Stripe's
/// envelope with an `evt_` id of its own, its object carrying the fields Stripe writes
/// beside those the ledger reads (`StripeBenchEvents+Fields`), so that a body is the
/// size of a real one (1–3 KB).
struct StripeBenchEvents: Sendable {
    /// One event: its id, type and the raw body a webhook of it carries.
    struct Event: Sendable {
        var id: String
        var type: String
        var body: [UInt8]
    }

    static let apiVersion = "2024-06-20"
    /// The types one story sends, in its order: what a round's mix is made of.
    static let storyTypes = [
        "checkout.session.completed", "customer.subscription.created", "invoice.paid", "customer.subscription.updated",
        "invoice.paid", "checkout.session.completed", "payment_intent.succeeded", "charge.refunded",
    ]

    /// Names this run's users apart from an earlier run's.
    let run: String
    /// Unix seconds the first story starts at: in the past, so that a story's month and
    /// more of events all happened before the benchmark sends them.
    let start: Int64
    /// Stories told so far: the next one's user follows.
    private var stories = 0

    init(run: String, now: Int64) {
        self.run = run
        start = now - 90 * 86_400
    }

    /// `count` events: as many stories as it takes, cut at `count`, each of a user of its
    /// own (`bench-<run>-<group>-<n>`).
    mutating func make(_ group: String, _ count: Int) -> [Event] {
        var events: [Event] = []
        events.reserveCapacity(count)
        while events.count < count {
            stories += 1
            for draft in Self.story(userID: "bench-\(run)-\(group)-\(stories)", start: start + Int64(stories)) where events.count < count {
                events.append(Self.event(draft))
            }
        }
        return events
    }

    /// One customer's story: a subscription bought through Checkout (the session, the
    /// subscription, its first invoice paid), renewed a month later (the subscription
    /// updated, the renewal's invoice paid), then a one-time purchase (the session in
    /// payment mode, its payment intent) refunded the next day.
    static func story(userID: String, start: Int64) -> [StripeEventDraft] {
        var scenario = StripeScenario(start: start, userID: userID, productID: "plus_monthly", amount: 999)
        var drafts = [scenario.completeCheckout(mode: .subscription, paymentStatus: "paid", amountTotal: scenario.amount),
                      scenario.createSubscription()]
        scenario.advance(seconds: 2)
        drafts.append(scenario.payInvoice(amount: scenario.amount, billingReason: "subscription_create"))
        scenario.advance(days: 30)
        drafts.append(scenario.startNextPeriod())
        drafts.append(scenario.payInvoice(amount: scenario.amount, billingReason: "subscription_cycle"))
        scenario.advance(days: 2)
        scenario.productID = "coins_500"
        scenario.amount = 499
        drafts += scenario.oneTimePayment()
        scenario.advance(days: 1)
        drafts.append(scenario.refundLastCharge())
        return drafts
    }

    /// The event object as Stripe writes it, as the stand-in records one: `object: "event"`,
    /// `api_version`, `created`, `data.object` (with Stripe's other fields) and
    /// `data.previous_attributes`, `livemode`, `pending_webhooks`, `request`, `type`.
    static func event(_ draft: StripeEventDraft) -> Event {
        let id = StripeID.make("evt_")
        var data: [String: JSONValue] = ["object": withStripeFields(draft.object)]
        if let previous = draft.previousAttributes { data["previous_attributes"] = previous }
        let json: JSONValue = [
            "id": .string(id), "object": "event", "api_version": .string(apiVersion), "created": .integer(draft.created),
            "data": .object(data), "livemode": false, "pending_webhooks": 1,
            "request": ["id": draft.requestID.map(JSONValue.string) ?? .null,
                        "idempotency_key": draft.idempotencyKey.map(JSONValue.string) ?? .null],
            "type": .string(draft.type),
        ]
        return Event(id: id, type: draft.type, body: json.compactBytes())
    }

    /// The `Stripe-Signature` header of `body` sent at `timestamp`, as Stripe signs it.
    static func signature(_ body: [UInt8], secret: String, timestamp: Int64) -> String {
        WebhookSignature.value(timestamp: timestamp, body: body, secrets: [secret])
    }
}
