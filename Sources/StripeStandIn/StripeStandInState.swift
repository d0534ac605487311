import LedgerJSON

/// What the stand-in holds, behind its lock.
struct StripeStandInState {
    struct Fault {
        var status: Int
        var shouldRetry: Bool?
        var body: JSONValue
    }

    /// One webhook waiting to be sent: it is signed when it is sent, with the endpoint's
    /// secrets then.
    struct Pending {
        var event: StripeStandInEvent
        var endpointID: String
    }

    var endpoints: [StripeStandInEndpoint] = []
    /// In the order recorded; listed newest first by `created`, then the latest recorded.
    var events: [StripeStandInEvent] = []
    var faults: [Fault] = []
    var requests: [StripeStandIn.Request] = []
    var deliveryMode: StripeDeliveryMode = .deliver
    /// Webhooks to send, one at a time, in order.
    var outbox: [Pending] = []
    /// Whether one is in flight (the next waits for its answer).
    var sending = false
    /// Delayed webhooks, until `flush()`.
    var held: [Pending] = []
    var deliveries: [StripeStandInDelivery] = []
    /// Ids of the events whose webhooks were dropped.
    var dropped: [String] = []
    var closed = false
}
