import Foundation

/// The filters and order of Get Transaction History v2 (its query parameters). Empty asks
/// for every transaction of the customer, in Apple's default (ascending) order.
public struct AppStoreTransactionHistoryQuery: Sendable, Equatable {
    /// `sort`: by `revisionDate`.
    public enum Sort: String, Sendable {
        case ascending = "ASCENDING"
        case descending = "DESCENDING"
    }

    /// `productType`.
    public enum ProductType: String, Sendable {
        case autoRenewable = "AUTO_RENEWABLE"
        case nonRenewable = "NON_RENEWABLE"
        case consumable = "CONSUMABLE"
        case nonConsumable = "NON_CONSUMABLE"
    }

    /// `startDate`: transactions purchased on or after it.
    public var start: Date?
    /// `endDate`: purchased before it.
    public var end: Date?
    /// `productId`, repeated.
    public var productIDs: [String]
    /// `productType`, repeated.
    public var productTypes: [ProductType]
    public var sort: Sort?
    /// `subscriptionGroupIdentifier`, repeated.
    public var subscriptionGroupIdentifiers: [String]
    /// `inAppOwnershipType`: `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    /// `revoked`: only revoked (true) or only not revoked (false) transactions.
    public var revoked: Bool?

    public init(start: Date? = nil, end: Date? = nil, productIDs: [String] = [], productTypes: [ProductType] = [],
                sort: Sort? = nil, subscriptionGroupIdentifiers: [String] = [], inAppOwnershipType: String? = nil,
                revoked: Bool? = nil) {
        self.start = start
        self.end = end
        self.productIDs = productIDs
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }

    /// The query parameters, `revision` left to the caller.
    var parameters: [(String, String)] {
        var items: [(String, String)] = []
        if let start { items.append(("startDate", String(AppStoreNotificationHistoryQuery.milliseconds(start)))) }
        if let end { items.append(("endDate", String(AppStoreNotificationHistoryQuery.milliseconds(end)))) }
        items += productIDs.map { ("productId", $0) }
        items += productTypes.map { ("productType", $0.rawValue) }
        if let sort { items.append(("sort", sort.rawValue)) }
        items += subscriptionGroupIdentifiers.map { ("subscriptionGroupIdentifier", $0) }
        if let inAppOwnershipType { items.append(("inAppOwnershipType", inAppOwnershipType)) }
        if let revoked { items.append(("revoked", revoked ? "true" : "false")) }
        return items
    }
}
