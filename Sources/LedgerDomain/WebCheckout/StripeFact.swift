/// What one of Stripe's events says, in the ledger's terms: the fields of its object that
/// the web checkout's rules read, typed, with Stripe's ids (docs/web-checkout.md). An
/// event of a type the rules do not read is `seen`: acknowledged and recorded as such.
public enum StripeFact: Sendable, Hashable, Codable {
    /// `checkout.session.completed`.
    case checkout(Checkout)
    /// `customer.subscription.created`, `.updated`, `.deleted`.
    case subscription(Subscription)
    /// `invoice.paid`, `invoice.payment_failed`.
    case invoice(Invoice)
    /// `payment_intent.amount_capturable_updated`, `.succeeded`, `.canceled`.
    case paymentIntent(PaymentIntent)
    /// `charge.refunded`.
    case refund(Refund)
    /// `charge.dispute.created`, `charge.dispute.closed`.
    case dispute(Dispute)
    /// Any other type: acknowledged, recorded as seen.
    case seen

    /// The fact's kind as the log names it.
    public var kind: String {
        switch self {
        case .checkout: "checkout"
        case .subscription: "subscription"
        case .invoice: "invoice"
        case .paymentIntent: "payment_intent"
        case .refund: "refund"
        case .dispute: "dispute"
        case .seen: "seen"
        }
    }

    /// Every Stripe id the fact names (`sub_…`, `cus_…`, `pi_…`, `in_…`, `ch_…`, `cs_…`,
    /// `dp_…`): a user's facts are those linked to the facts that name the user.
    public var links: [String] {
        var ids: [String?]
        switch self {
        case .checkout(let c): ids = [c.sessionID, c.customerID, c.subscriptionID, c.paymentIntentID]
        case .subscription(let s): ids = [s.subscriptionID, s.customerID]
        case .invoice(let i): ids = [i.invoiceID, i.customerID, i.subscriptionID, i.paymentIntentID]
        case .paymentIntent(let p): ids = [p.paymentIntentID, p.customerID, p.subscriptionID]
        case .refund(let r): ids = [r.chargeID, r.customerID, r.paymentIntentID, r.invoiceID]
        case .dispute(let d): ids = [d.disputeID, d.chargeID, d.paymentIntentID]
        case .seen: ids = []
        }
        var seen = Set<String>()
        return ids.compactMap { $0 }.filter { seen.insert($0).inserted }
    }

    enum CodingKeys: String, CodingKey { case kind, object }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "checkout": self = .checkout(try c.decode(Checkout.self, forKey: .object))
        case "subscription": self = .subscription(try c.decode(Subscription.self, forKey: .object))
        case "invoice": self = .invoice(try c.decode(Invoice.self, forKey: .object))
        case "payment_intent": self = .paymentIntent(try c.decode(PaymentIntent.self, forKey: .object))
        case "refund": self = .refund(try c.decode(Refund.self, forKey: .object))
        case "dispute": self = .dispute(try c.decode(Dispute.self, forKey: .object))
        case "seen": self = .seen
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown Stripe fact kind \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .checkout(let o): try c.encode(o, forKey: .object)
        case .subscription(let o): try c.encode(o, forKey: .object)
        case .invoice(let o): try c.encode(o, forKey: .object)
        case .paymentIntent(let o): try c.encode(o, forKey: .object)
        case .refund(let o): try c.encode(o, forKey: .object)
        case .dispute(let o): try c.encode(o, forKey: .object)
        case .seen: break
        }
    }
}
