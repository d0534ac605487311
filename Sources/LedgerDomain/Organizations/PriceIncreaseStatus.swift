/// Where a subscription's price increase stands (`PRICE_INCREASE`; docs/appstore.md,
/// "Lifecycle"): the subtype Apple signed, else the signed renewal info's
/// `priceIncreaseStatus`.
public enum PriceIncreaseStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The customer was told of an increase that needs their consent and has not responded
    /// (`PENDING`, `priceIncreaseStatus` 0): without it the subscription expires at renewal.
    case pending
    /// The customer consented, or the increase needed no consent (`ACCEPTED`, `priceIncreaseStatus` 1).
    case accepted

    /// From the notification's subtype, else the renewal info's `priceIncreaseStatus`; nil
    /// when neither says.
    public init?(subtype: String?, renewalInfoStatus: Int?) {
        switch (subtype, renewalInfoStatus) {
        case ("PENDING", _): self = .pending
        case ("ACCEPTED", _): self = .accepted
        case (_, 0): self = .pending
        case (_, 1): self = .accepted
        default: return nil
        }
    }
}
