import Foundation
import LedgerJSON

/// What Send Consumption Information sends (`ConsumptionRequest`) after a
/// `CONSUMPTION_REQUEST` notification, each field one of Apple's documented values.
public struct AppStoreConsumptionRequest: Sendable, Equatable {
    /// Whether the customer consented to share the data: Apple refuses the request without it.
    public var customerConsented: Bool
    /// `consumptionStatus`: 0 undeclared, 1 not consumed, 2 partially, 3 fully.
    public var consumptionStatus: Int
    /// `platform`: 0 undeclared, 1 Apple, 2 non-Apple.
    public var platform: Int
    public var sampleContentProvided: Bool
    /// `deliveryStatus`: 0 delivered and working, 1–5 the reasons it was not.
    public var deliveryStatus: Int
    /// `appAccountToken`: the one the purchase carried, or nil (sent as an empty string).
    public var appAccountToken: UUID?
    /// `accountTenure`: 0 undeclared, 1 0–3 days, … 7 over 365 days.
    public var accountTenure: Int
    /// `playTime`: 0 undeclared, 1 0–5 minutes, … 7 over 16 days.
    public var playTime: Int
    /// `lifetimeDollarsRefunded` and `lifetimeDollarsPurchased`: 0 undeclared, 1 0 USD, … 7 over 2000 USD.
    public var lifetimeDollarsRefunded: Int
    public var lifetimeDollarsPurchased: Int
    /// `userStatus`: 0 undeclared, 1 active, 2 suspended, 3 terminated, 4 limited access.
    public var userStatus: Int
    /// `refundPreference`: 0 undeclared, 1 grant, 2 decline, 3 no preference.
    public var refundPreference: Int

    public init(customerConsented: Bool, consumptionStatus: Int = 0, platform: Int = 0, sampleContentProvided: Bool = false,
                deliveryStatus: Int = 0, appAccountToken: UUID? = nil, accountTenure: Int = 0, playTime: Int = 0,
                lifetimeDollarsRefunded: Int = 0, lifetimeDollarsPurchased: Int = 0, userStatus: Int = 0, refundPreference: Int = 0) {
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

    func validate() throws(AppStoreServerAPIError) {
        guard customerConsented else {
            throw AppStoreServerAPIError(.invalidRequest, "consumption information is sent only with the customer's consent")
        }
        let ranges: [(String, Int, ClosedRange<Int>)] = [
            ("consumptionStatus", consumptionStatus, 0...3), ("platform", platform, 0...2), ("deliveryStatus", deliveryStatus, 0...5),
            ("accountTenure", accountTenure, 0...7), ("playTime", playTime, 0...7),
            ("lifetimeDollarsRefunded", lifetimeDollarsRefunded, 0...7), ("lifetimeDollarsPurchased", lifetimeDollarsPurchased, 0...7),
            ("userStatus", userStatus, 0...4), ("refundPreference", refundPreference, 0...3),
        ]
        for (name, value, range) in ranges where !range.contains(value) {
            throw AppStoreServerAPIError(.invalidRequest, "\(name) must be \(range.lowerBound) to \(range.upperBound), not \(value)")
        }
    }

    var body: JSONValue {
        [
            "customerConsented": .bool(customerConsented),
            "consumptionStatus": .integer(Int64(consumptionStatus)),
            "platform": .integer(Int64(platform)),
            "sampleContentProvided": .bool(sampleContentProvided),
            "deliveryStatus": .integer(Int64(deliveryStatus)),
            "appAccountToken": .string(appAccountToken?.uuidString.lowercased() ?? ""),
            "accountTenure": .integer(Int64(accountTenure)),
            "playTime": .integer(Int64(playTime)),
            "lifetimeDollarsRefunded": .integer(Int64(lifetimeDollarsRefunded)),
            "lifetimeDollarsPurchased": .integer(Int64(lifetimeDollarsPurchased)),
            "userStatus": .integer(Int64(userStatus)),
            "refundPreference": .integer(Int64(refundPreference)),
        ]
    }
}
