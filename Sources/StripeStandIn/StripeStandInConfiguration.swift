import Foundation

/// The accounts the stand-in plays, and its clock.
public struct StripeStandInConfiguration: Sendable {
    /// At least one; the first is the one the stand-in's methods act on unless told another.
    public var accounts: [StripeStandInAccount]
    /// Now, for the signatures' `t` (a receiver checks it against its own clock) and the
    /// events recorded without a time of their own.
    public var clock: @Sendable () -> Date
    /// The `api_version` written in every event.
    public var apiVersion: String
    /// Seconds to wait for a receiver's answer to one delivery.
    public var deliveryTimeout: Double

    public init(accounts: [StripeStandInAccount] = [.test()], clock: @escaping @Sendable () -> Date = { Date() },
                apiVersion: String = StripeStandIn.apiVersion, deliveryTimeout: Double = 10) {
        precondition(!accounts.isEmpty, "the stand-in plays at least one account")
        self.accounts = accounts
        self.clock = clock
        self.apiVersion = apiVersion
        self.deliveryTimeout = deliveryTimeout
    }
}
