/// One webhook the stand-in sent (or tried to): which event to which endpoint, the
/// signature it carried, and what the receiver answered.
public struct StripeStandInDelivery: Sendable, Equatable {
    public var eventID: String
    public var eventType: String
    public var endpointID: String
    public var url: String
    /// The `Stripe-Signature` header sent.
    public var signature: String
    /// The receiver's HTTP status; nil when nothing was answered (`failure` says why).
    public var status: Int?
    /// Why no answer came (a refused connection, a timeout), when none did.
    public var failure: String?
}
