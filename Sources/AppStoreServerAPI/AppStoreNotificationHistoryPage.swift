/// One page of Get Notification History (at most 20 records at Apple): its records and,
/// when `hasMore`, the `paginationToken` that asks for the next.
public struct AppStoreNotificationHistoryPage: Sendable, Equatable {
    public var items: [AppStoreNotificationHistoryItem]
    public var hasMore: Bool
    /// The token for the next page, to send with the same query.
    public var paginationToken: String?

    public init(items: [AppStoreNotificationHistoryItem], hasMore: Bool, paginationToken: String?) {
        self.items = items
        self.hasMore = hasMore
        self.paginationToken = paginationToken
    }
}
