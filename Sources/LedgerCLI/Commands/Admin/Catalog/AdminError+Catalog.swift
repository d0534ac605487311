/// Refusals of the IAP catalog's commands that the billing codes do not cover.
extension AdminError.Code {
    /// `app disable` on a disabled app.
    static let alreadyDisabled = Self(rawValue: "already_disabled")
    /// `app enable` on an enabled app.
    static let alreadyEnabled = Self(rawValue: "already_enabled")
    /// A campaign that was configured once but has ended or been replaced since.
    static let notActive = Self(rawValue: "not_active")
    /// A product that an active campaign names, or a campaign id another campaign holds.
    static let inUse = Self(rawValue: "in_use")
    /// A campaign that would sell on the web a product without a web price.
    static let noWebPrice = Self(rawValue: "no_web_price")
    /// A purchase that does not fit its product (a consumable that expires, a trial of a
    /// product without one) or ends before it starts.
    static let invalidPurchase = Self(rawValue: "invalid_purchase")
    /// A purchase dated after the clock.
    static let inFuture = Self(rawValue: "in_future")
}
