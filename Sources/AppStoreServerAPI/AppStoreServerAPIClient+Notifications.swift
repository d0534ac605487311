import AppStore
import Foundation
import LedgerJSON

extension AppStoreServerAPIClient {
    /// The most pages a walk follows before it stops with an error: a guard against an
    /// answer that never says it is done, not a limit a real history reaches.
    public static let maximumPages = 10_000

    /// One page of Get Notification History (`POST /inApps/v1/notifications/history`):
    /// the first with `paginationToken` nil, the next with the token the previous page gave,
    /// and the same `query`. Every `signedPayload` is verified before the page is returned.
    public func notificationHistoryPage(_ query: AppStoreNotificationHistoryQuery,
                                        paginationToken: String? = nil) throws(AppStoreServerAPIError) -> AppStoreNotificationHistoryPage {
        let retention = configuration.environment.signedEnvironment == AppStoreEnvironmentPolicy.Environment.production
            ? AppStoreNotificationHistoryQuery.productionRetentionDays : AppStoreNotificationHistoryQuery.sandboxRetentionDays
        try query.validate(now: clock(), retentionDays: retention)
        let answer = try call("POST", "/inApps/v1/notifications/history", query: paginationToken.map { [("paginationToken", $0)] } ?? [],
                              body: query.body)
        let fields = try AnswerFields(answer, endpoint: "Get Notification History")
        var items: [AppStoreNotificationHistoryItem] = []
        for (index, record) in try fields.array("notificationHistory").enumerated() {
            let item = try fields.nested(record, "notificationHistory[\(index)]")
            let notification = try verifiedNotification(try item.string("signedPayload"), in: "notificationHistory[\(index)].signedPayload")
            items.append(AppStoreNotificationHistoryItem(notification: notification, sendAttempts: try sendAttempts(item)))
        }
        let hasMore = try fields.bool("hasMore", default: false)
        let token = try fields.optionalString("paginationToken")
        if hasMore && token == nil {
            throw AppStoreServerAPIError(.malformedAnswer, "Get Notification History: `hasMore` without a `paginationToken`")
        }
        return AppStoreNotificationHistoryPage(items: items, hasMore: hasMore, paginationToken: token)
    }

    /// Every record of `query`'s window, walking the pages in Apple's order. For a long
    /// window prefer `forEachNotificationHistoryPage`, which holds one page at a time.
    public func notificationHistory(_ query: AppStoreNotificationHistoryQuery) throws(AppStoreServerAPIError) -> [AppStoreNotificationHistoryItem] {
        var all: [AppStoreNotificationHistoryItem] = []
        try forEachNotificationHistoryPage(query) { all += $0.items }
        return all
    }

    /// Walks every page of `query`, handing each to `visit` (which may record it, and
    /// remember its token to resume from, before the next is asked for).
    public func forEachNotificationHistoryPage(_ query: AppStoreNotificationHistoryQuery, from paginationToken: String? = nil,
                                               _ visit: (AppStoreNotificationHistoryPage) -> Void) throws(AppStoreServerAPIError) {
        var token = paginationToken
        for _ in 0..<Self.maximumPages {
            let page = try notificationHistoryPage(query, paginationToken: token)
            visit(page)
            guard page.hasMore else { return }
            guard page.paginationToken != token else {
                throw AppStoreServerAPIError(.malformedAnswer, "Get Notification History gave the same paginationToken twice")
            }
            token = page.paginationToken
        }
        throw AppStoreServerAPIError(.malformedAnswer, "Get Notification History had more than \(Self.maximumPages) pages")
    }

    /// Request a Test Notification (`POST /inApps/v1/notifications/test`): Apple sends a
    /// `TEST` notification to the app's URL; the token asks for its status.
    public func requestTestNotification() throws(AppStoreServerAPIError) -> String {
        let fields = try AnswerFields(try call("POST", "/inApps/v1/notifications/test"), endpoint: "Request a Test Notification")
        return try fields.string("testNotificationToken")
    }

    /// Get Test Notification Status (`GET /inApps/v1/notifications/test/{testNotificationToken}`).
    public func testNotificationStatus(token: String) throws(AppStoreServerAPIError) -> AppStoreTestNotificationStatus {
        let answer = try call("GET", "/inApps/v1/notifications/test/" + Self.segment(token))
        let fields = try AnswerFields(answer, endpoint: "Get Test Notification Status")
        let notification = try verifiedNotification(try fields.string("signedPayload"), in: "signedPayload")
        return AppStoreTestNotificationStatus(notification: notification, sendAttempts: try sendAttempts(fields))
    }

    private func sendAttempts(_ fields: AnswerFields) throws(AppStoreServerAPIError) -> [AppStoreSendAttempt] {
        var attempts: [AppStoreSendAttempt] = []
        for (index, raw) in try fields.array("sendAttempts").enumerated() {
            let attempt = try fields.nested(raw, "sendAttempts[\(index)]")
            let date = try attempt.optionalInt64("attemptDate").map { Date(timeIntervalSince1970: Double($0) / 1000) }
            attempts.append(AppStoreSendAttempt(attemptDate: date, result: try attempt.string("sendAttemptResult")))
        }
        return attempts
    }
}
