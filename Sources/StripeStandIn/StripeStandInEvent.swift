import LedgerJSON

/// An event the stand-in recorded: its envelope as Stripe writes it and the bytes every
/// delivery of it carries.
public struct StripeStandInEvent: Sendable, Equatable {
    /// `evt_…`.
    public var id: String
    public var type: String
    public var created: Int64
    /// The account it happened on.
    public var account: String
    /// The whole `Event` object.
    public var json: JSONValue
    /// The body each webhook of it carries (and the signature covers).
    public var body: [UInt8]
}
