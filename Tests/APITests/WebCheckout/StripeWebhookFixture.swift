import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport
import WebhookSigning

/// Stripe's events as its webhooks deliver them (the fields the ledger reads, API version
/// 2024-06-20 shapes), signed as Stripe signs them, and posted to the service.
extension BillingFixture {
    static let stripeSecret = "whsec_test_0123456789abcdefghijkl"
    static let rolledSecret = "whsec_test_rolled_9876543210zyxwvu"

    /// Posts `event` to the app's endpoint, signed at the service's clock with `secrets`
    /// (one `v1` each), or with `header` as given.
    func postStripe(_ event: JSONValue, app: String, secrets: [String] = [stripeSecret], at: Int64? = nil,
                    header: String?? = nil) throws -> (status: Int, body: JSONValue) {
        let body = event.compactBytes(sortedKeys: false)
        let t = at ?? Int64(service.clock.now.seconds)
        let signature = header ?? WebhookSignature.value(timestamp: t, body: body, secrets: secrets)
        let headers = [("Content-Type", "application/json")] + (signature.map { [("Stripe-Signature", $0)] } ?? [])
        let response = try service.client().send(method: "POST", path: "/v1/stripe/webhooks/\(app)", headers: headers, body: body)
        return (response.status, try JSONValue.parse(response.body))
    }

    /// GET /v1/iap/entitlements once the projections hold everything appended.
    func entitlements(key: String, user: String) throws -> (status: Int, body: JSONValue) {
        let head = try service.store.log.headPosition()
        let response = try service.get("/v1/iap/entitlements?user_id=\(user)&min_position=\(head)", headers: [("X-ZeroSettle-Key", key)])
        return (response.status, try JSONValue.parse(response.body))
    }
}

/// Builds Stripe events with ids of their own and the times given (Unix seconds).
struct StripeEvents {
    var livemode = false
    private var n = 0

    mutating func event(_ type: String, _ object: JSONValue, created: Int64) -> JSONValue {
        n += 1
        return ["id": .string("evt_test_\(n)_\(UUID().uuidString.prefix(8))"), "object": "event", "type": .string(type),
                "created": .integer(created), "livemode": .bool(livemode), "api_version": "2024-06-20",
                "data": ["object": object], "pending_webhooks": 1]
    }

    static func checkout(_ session: String, user: String, customer: String, subscription: String?, product: String,
                         status: String = "no_payment_required", created: Int64) -> JSONValue {
        ["id": .string(session), "object": "checkout.session", "mode": subscription == nil ? "payment" : "subscription",
         "client_reference_id": .string(user), "customer": .string(customer), "subscription": subscription.map(JSONValue.string) ?? .null,
         "payment_intent": .null, "payment_status": .string(status), "status": "complete", "amount_total": 0, "currency": "usd",
         "metadata": ["product_id": .string(product)], "created": .integer(created)]
    }

    static func subscription(_ id: String, customer: String, status: String, product: String, created: Int64,
                             periodEnd: Int64, trialEnd: Int64? = nil, cancelAtPeriodEnd: Bool = false, endedAt: Int64? = nil) -> JSONValue {
        ["id": .string(id), "object": "subscription", "customer": .string(customer), "status": .string(status), "created": .integer(created),
         "current_period_start": .integer(created), "current_period_end": .integer(periodEnd),
         "trial_start": trialEnd == nil ? .null : .integer(created), "trial_end": trialEnd.map(JSONValue.integer) ?? .null,
         "cancel_at_period_end": .bool(cancelAtPeriodEnd), "cancel_at": .null, "canceled_at": endedAt.map(JSONValue.integer) ?? .null,
         "ended_at": endedAt.map(JSONValue.integer) ?? .null, "metadata": [:],
         "items": ["object": "list", "data": [["id": "si_1", "price": ["id": "price_1", "product": "prod_1", "lookup_key": .null,
                                                                          "metadata": ["product_id": .string(product)]]]]]]
    }
}
