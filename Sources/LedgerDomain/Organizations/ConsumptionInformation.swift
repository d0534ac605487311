import Foundation

/// What the ledger tells Apple about a purchase whose refund a customer asked for: the
/// fields of Apple's `ConsumptionRequest` (Send Consumption Information), each one of
/// Apple's documented values, 0 meaning "undeclared" wherever Apple allows it
/// (docs/appstore.md, "Refund requests").
public struct ConsumptionInformation: Sendable, Hashable, Codable {
    /// `customerConsented`: Apple refuses the request without it.
    public var customerConsented: Bool
    /// `consumptionStatus`: 0 undeclared, 1 not consumed, 2 partially, 3 fully.
    public var consumptionStatus: Int
    /// `platform`: 0 undeclared, 1 Apple, 2 non-Apple.
    public var platform: Int
    /// `sampleContentProvided`: a free trial or sample before the purchase.
    public var sampleContentProvided: Bool
    /// `deliveryStatus`: 0 delivered and working, 1–5 the reasons it was not.
    public var deliveryStatus: Int
    /// `appAccountToken`: the organization's account token, nil when it has none.
    public var appAccountToken: UUID?
    /// `accountTenure`: 0 undeclared, 1 0–3 days, 2 3–10, 3 10–30, 4 30–90, 5 90–180,
    /// 6 180–365, 7 over 365 days.
    public var accountTenure: Int
    /// `playTime`: 0 undeclared, 1 0–5 minutes, … 7 over 16 days.
    public var playTime: Int
    /// `lifetimeDollarsRefunded`: 0 undeclared, 1 0 USD, 2 0.01–49.99 USD, … 7 over 2000 USD.
    public var lifetimeDollarsRefunded: Int
    /// `lifetimeDollarsPurchased`: the same buckets.
    public var lifetimeDollarsPurchased: Int
    /// `userStatus`: 0 undeclared, 1 active, 2 suspended, 3 terminated, 4 limited access.
    public var userStatus: Int
    /// `refundPreference`: 0 undeclared, 1 grant, 2 decline, 3 no preference.
    public var refundPreference: Int

    enum CodingKeys: String, CodingKey {
        case customerConsented = "customer_consented", consumptionStatus = "consumption_status", platform
        case sampleContentProvided = "sample_content_provided", deliveryStatus = "delivery_status"
        case appAccountToken = "app_account_token", accountTenure = "account_tenure", playTime = "play_time"
        case lifetimeDollarsRefunded = "lifetime_dollars_refunded", lifetimeDollarsPurchased = "lifetime_dollars_purchased"
        case userStatus = "user_status", refundPreference = "refund_preference"
    }

    public init(customerConsented: Bool, consumptionStatus: Int, platform: Int, sampleContentProvided: Bool, deliveryStatus: Int,
                appAccountToken: UUID?, accountTenure: Int, playTime: Int, lifetimeDollarsRefunded: Int,
                lifetimeDollarsPurchased: Int, userStatus: Int, refundPreference: Int) {
        self.customerConsented = customerConsented
        self.consumptionStatus = consumptionStatus
        self.platform = platform
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.appAccountToken = appAccountToken
        self.accountTenure = accountTenure
        self.playTime = playTime
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.userStatus = userStatus
        self.refundPreference = refundPreference
    }

    /// Each integer field by Apple's name, with its value and Apple's range.
    public var rangedFields: [(name: String, value: Int, range: ClosedRange<Int>)] {
        [("consumptionStatus", consumptionStatus, 0...3), ("platform", platform, 0...2), ("deliveryStatus", deliveryStatus, 0...5),
         ("accountTenure", accountTenure, 0...7), ("playTime", playTime, 0...7),
         ("lifetimeDollarsRefunded", lifetimeDollarsRefunded, 0...7), ("lifetimeDollarsPurchased", lifetimeDollarsPurchased, 0...7),
         ("userStatus", userStatus, 0...4), ("refundPreference", refundPreference, 0...3)]
    }

    /// The fields outside Apple's ranges, and a missing consent: empty when Apple would take it.
    public var problems: [String] {
        var found = rangedFields.compactMap { field -> String? in
            field.range.contains(field.value) ? nil
                : "\(field.name) must be \(field.range.lowerBound) to \(field.range.upperBound), not \(field.value)"
        }
        if !customerConsented { found.append("customerConsented must be true: Apple takes nothing without the customer's consent") }
        return found
    }
}
