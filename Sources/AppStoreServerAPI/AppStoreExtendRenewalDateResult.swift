import Foundation

/// What Extend a Subscription Renewal Date answers (`ExtendRenewalDateResponse`).
/// Unsigned: the extension itself arrives as a signed `RENEWAL_EXTENDED` notification and
/// in the subscription's status, which is what the ledger records.
public struct AppStoreExtendRenewalDateResult: Sendable, Equatable {
    public var success: Bool
    /// The new expiry, when extended.
    public var effectiveDate: Date?
    public var originalTransactionID: String?
    public var webOrderLineItemID: String?
}
