import LedgerJSON

/// Realistic Stripe objects and events for one customer buying one product, on a clock the
/// scenario moves (`now`, Unix seconds: every event is `created` at the scenario's time
/// when it happens), in the shapes of API version 2024-06-20 and with the fields the ledger
/// reads. The steps (`completeCheckout`, `createSubscription`, `payInvoice`, …) each
/// return the events they cause, in Stripe's order; the composites (`freeTrialThatConverts`,
/// `renewalFails`, …, in the `StripeScenario+…` files) chain them into a whole story.
/// Hand the events to `StripeStandIn.record`.
///
/// ```swift
/// var scenario = StripeScenario(start: 1_767_225_600, userID: "user-42", productID: "plus_monthly", amount: 999)
/// standIn.record(scenario.freeTrialThatConverts(trialDays: 7))
/// ```
public struct StripeScenario: Sendable {
    /// The ledger's user, written in `client_reference_id` and every `metadata.user_id`.
    public var userID: String
    /// The ledger's catalog product, in every `metadata.product_id` and the price's `lookup_key`.
    public var productID: String
    /// The price of one period (or of the one-time payment), in the currency's minor unit.
    public var amount: Int64
    /// ISO 4217, lowercase (`usd`).
    public var currency: String
    /// Seconds in one billing period (30 days by default).
    public var periodSeconds: Int64
    /// Now, for the scenario: Unix seconds.
    public var now: Int64

    /// `cus_…`.
    public let customerID: String
    /// `prod_…`: Stripe's product.
    public let stripeProductID: String
    /// `price_…`.
    public let priceID: String
    /// `sub_…`: the subscription, once created.
    public let subscriptionID: String
    /// `si_…`.
    public let subscriptionItemID: String

    /// The subscription as it is now, once created.
    public internal(set) var subscription: JSONValue?
    /// The last charge made (`ch_…`, with its payment intent, invoice and amount): what a
    /// refund or a dispute is about.
    public internal(set) var lastCharge: JSONValue?
    /// The invoice whose payment failed and is being retried, until it is paid.
    public internal(set) var openInvoice: JSONValue?
    /// The open dispute, once created.
    public internal(set) var dispute: JSONValue?
    /// The hold of an auth-hold trial (a manual-capture payment intent), once placed.
    public internal(set) var hold: JSONValue?

    public init(start: Int64, userID: String, productID: String, amount: Int64, currency: String = "usd",
                periodSeconds: Int64 = 30 * 86_400) {
        self.userID = userID
        self.productID = productID
        self.amount = amount
        self.currency = currency
        self.periodSeconds = periodSeconds
        now = start
        customerID = StripeID.make("cus_", length: 14)
        stripeProductID = StripeID.make("prod_", length: 14)
        priceID = StripeID.make("price_")
        subscriptionID = StripeID.make("sub_")
        subscriptionItemID = StripeID.make("si_", length: 14)
    }

    /// Moves the scenario's clock on.
    public mutating func advance(seconds: Int64) { now += seconds }
    public mutating func advance(days: Int64) { now += days * 86_400 }

    /// `{user_id, product_id}`: what the ledger's checkout writes on every object.
    var metadata: JSONValue { ["user_id": .string(userID), "product_id": .string(productID)] }

    /// An event of `type` about `object`, created now.
    func draft(_ type: String, _ object: JSONValue, previous: JSONValue? = nil, requestID: String? = nil) -> StripeEventDraft {
        StripeEventDraft(type: type, object: object, previousAttributes: previous, created: now, requestID: requestID,
                         idempotencyKey: requestID.map { _ in StripeID.make("", length: 32) })
    }

    /// `object` with `changes` applied, and the values they replaced (what an `*.updated`
    /// event's `previous_attributes` holds).
    static func updating(_ object: JSONValue, _ changes: [String: JSONValue]) -> (updated: JSONValue, previous: JSONValue) {
        var fields = object.objectValue ?? [:]
        var previous: [String: JSONValue] = [:]
        for (key, value) in changes where fields[key] != value {
            previous[key] = fields[key] ?? .null
            fields[key] = value
        }
        return (.object(fields), .object(previous))
    }
}
