import AppStore
import AppStoreServerAPI
import Foundation
import Testing
import TestSupport

@Suite("Notification history walks every page and returns verified notifications", .bounded)
struct NotificationHistoryTests {
    @Test("eight notifications at three a page: three requests, every one returned in order, verified")
    func walksEveryPage() throws {
        let fixture = try StandInFixture(pageSize: 3)
        let sent = (0..<8).map { fixture.addNotification(secondsAgo: Double(3600 - $0 * 60)) }
        let client = fixture.client()
        let now = fixture.clock()
        let items = try client.notificationHistory(AppStoreNotificationHistoryQuery(start: now.addingTimeInterval(-86_400), end: now))
        #expect(items.map(\.notification.value.notificationUUID) == sent.map { $0.uuidString.lowercased() })
        #expect(items.allSatisfy { $0.notification.value.transaction != nil && $0.neverDelivered })
        #expect(items.allSatisfy { $0.sendAttempts.map(\.result) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "TIMED_OUT"] })
        #expect(fixture.standIn.requests.map(\.path) == Array(repeating: "/inApps/v1/notifications/history", count: 3))
    }

    @Test("a page at a time: the token of one page asks for the next, and the last has none")
    func pageByPage() throws {
        let fixture = try StandInFixture(pageSize: 2)
        for i in 0..<3 { fixture.addNotification(secondsAgo: Double(600 - i)) }
        let client = fixture.client()
        let now = fixture.clock()
        let query = AppStoreNotificationHistoryQuery(start: now.addingTimeInterval(-3600), end: now)
        let first = try client.notificationHistoryPage(query)
        #expect(first.items.count == 2 && first.hasMore)
        let token = try #require(first.paginationToken)
        let second = try client.notificationHistoryPage(query, paginationToken: token)
        #expect(second.items.count == 1 && !second.hasMore && second.paginationToken == nil)

        // A token belongs to its query: Apple refuses it with another.
        let other = AppStoreNotificationHistoryQuery(start: now.addingTimeInterval(-7200), end: now)
        let error = try #require(throws: AppStoreServerAPIError.self) { try client.notificationHistoryPage(other, paginationToken: token) }
        #expect(error.code == .invalidPaginationToken && error.appleErrorCode == 4_000_014 && error.status == 400)
    }

    @Test("the window, onlyFailures, the type and the transaction id select what Apple would")
    func filters() throws {
        let fixture = try StandInFixture(pageSize: 2)
        let missed = fixture.addNotification(type: "DID_RENEW", secondsAgo: 300)
        let delivered = fixture.addNotification(type: "DID_RENEW", secondsAgo: 200, delivered: true)
        let refund = fixture.addNotification(type: "REFUND", secondsAgo: 100, transactionID: "2000000000000042")
        let old = fixture.addNotification(type: "DID_RENEW", secondsAgo: 5 * 86_400)
        let client = fixture.client()
        let now = fixture.clock()
        let day = now.addingTimeInterval(-86_400)
        func uuids(_ query: AppStoreNotificationHistoryQuery) throws -> [UUID] {
            try client.notificationHistory(query).map { UUID(uuidString: $0.notification.value.notificationUUID)! }
        }
        #expect(try uuids(.init(start: day, end: now)) == [missed, delivered, refund])
        #expect(try uuids(.init(start: now.addingTimeInterval(-7 * 86_400), end: now)) == [old, missed, delivered, refund])
        #expect(try uuids(.init(start: day, end: now, onlyFailures: true)) == [missed, refund])
        #expect(try uuids(.init(start: day, end: now, notificationType: "REFUND")) == [refund])
        #expect(try uuids(.init(start: day, end: now, transactionID: "2000000000000042")) == [refund])
    }

    @Test("what Apple would refuse is refused before a request is sent")
    func refusedBeforeSending() throws {
        let fixture = try StandInFixture()
        let client = fixture.client()
        let now = fixture.clock()
        let queries: [AppStoreNotificationHistoryQuery] = [
            .init(start: now, end: now.addingTimeInterval(-1)),
            .init(start: now.addingTimeInterval(-31 * 86_400), end: now),  // the sandbox keeps 30 days
            .init(start: now.addingTimeInterval(-60), end: now, notificationType: "REFUND", transactionID: "1"),
            .init(start: now.addingTimeInterval(-60), end: now, notificationSubtype: "VOLUNTARY"),
        ]
        for query in queries {
            let error = try #require(throws: AppStoreServerAPIError.self) { try client.notificationHistoryPage(query) }
            #expect(error.code == .invalidRequest)
        }
        #expect(fixture.standIn.requests.isEmpty)
    }

    @Test("a test notification is requested, and its status returns it verified")
    func testNotification() throws {
        let fixture = try StandInFixture()
        let client = fixture.client()
        let token = try client.requestTestNotification()
        let status = try client.testNotificationStatus(token: token)
        #expect(status.notification.value.notificationType == "TEST")
        #expect(status.sendAttempts.map(\.result) == ["SUCCESS"])
        let error = try #require(throws: AppStoreServerAPIError.self) { try client.testNotificationStatus(token: "unknown+token/=") }
        #expect(error.code == .apple(4_040_008) && error.code.rawValue == "test_notification_not_found")
    }
}
