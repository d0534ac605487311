import Foundation

/// What the ledger's own facts say about the organization a refund request names, as they
/// stood when Apple asked (events before the request): what `ConsumptionDecider` builds
/// Apple's fields from.
public struct ConsumptionCustomer: Sendable, Hashable {
    public var orgID: String
    /// The organization's account token (`appAccountToken`).
    public var accountToken: UUID?
    /// When the organization was created (`org.created`'s business time), if known.
    public var createdAt: Timestamp?
    /// The earliest `purchaseDate` of its App Store transactions, if any.
    public var firstPurchase: Timestamp?
    /// Its App Store subscriptions that Apple refunded (`REFUND`, or a purchased
    /// transaction revoked).
    public var refundedSubscriptions: Int
    /// What those refunds came to in US cents, when the ledger knows the prices; nil when
    /// it does not (it does not record what a customer paid Apple).
    public var refundedUSCents: Int64?
    /// The requested transaction's subscription began with a free trial (an introductory
    /// offer, `FREE_TRIAL`): `sampleContentProvided`.
    public var hadFreeTrial: Bool

    public init(orgID: String, accountToken: UUID?, createdAt: Timestamp?, firstPurchase: Timestamp?, refundedSubscriptions: Int,
                refundedUSCents: Int64? = nil, hadFreeTrial: Bool) {
        self.orgID = orgID
        self.accountToken = accountToken
        self.createdAt = createdAt
        self.firstPurchase = firstPurchase
        self.refundedSubscriptions = refundedSubscriptions
        self.refundedUSCents = refundedUSCents
        self.hadFreeTrial = hadFreeTrial
    }

    /// Since when it has been a customer: its creation or its first App Store purchase,
    /// whichever came first.
    public var customerSince: Timestamp? {
        switch (createdAt, firstPurchase) {
        case let (a?, b?): min(a, b)
        case let (a, b): a ?? b
        }
    }
}
