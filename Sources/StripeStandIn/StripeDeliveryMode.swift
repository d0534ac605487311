/// What the stand-in does with an event's webhooks, per event or as a standing setting:
/// the faults Stripe's delivery has (no order promised, retries that deliver twice,
/// outages), each on demand.
public enum StripeDeliveryMode: Sendable, Equatable {
    /// Delivered once to each endpoint, in the order recorded.
    case deliver
    /// Recorded but never delivered: only `GET /v1/events` has it (an outage that outlasted
    /// Stripe's retries, a receiver that was down).
    case drop
    /// Delivered twice to each endpoint (a retry after an answer that was lost), the same
    /// event id each time, each signed afresh.
    case duplicate
    /// Held until `flush()`, then delivered (a retry hours later).
    case delay
    /// The events recorded together delivered in the reverse order (no order is promised).
    case reorder
}
