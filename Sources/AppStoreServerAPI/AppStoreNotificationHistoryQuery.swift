import Foundation
import LedgerJSON

/// What Get Notification History is asked for (Apple's `NotificationHistoryRequest`): a
/// window of at most what Apple keeps (180 days in production, 30 in the sandbox), and at
/// most one of a notification type (with, optionally, its subtype) or a transaction id.
public struct AppStoreNotificationHistoryQuery: Sendable, Equatable {
    /// How far back Apple keeps notification history in production.
    public static let productionRetentionDays = 180
    /// How far back Apple keeps it in the sandbox.
    public static let sandboxRetentionDays = 30

    /// The window's start (`startDate`), within the retention from now.
    public var start: Date
    /// The window's end (`endDate`), after `start`; Apple reads a future one as now.
    public var end: Date
    public var notificationType: String?
    /// Only with `notificationType`.
    public var notificationSubtype: String?
    /// Only notifications whose delivery has not succeeded (yet).
    public var onlyFailures: Bool
    /// The history of one customer's transactions: any of their transaction ids. Not with
    /// `notificationType`.
    public var transactionID: String?

    public init(start: Date, end: Date, notificationType: String? = nil, notificationSubtype: String? = nil,
                onlyFailures: Bool = false, transactionID: String? = nil) {
        self.start = start
        self.end = end
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.onlyFailures = onlyFailures
        self.transactionID = transactionID
    }

    /// Refuses, before anything is sent, what Apple would refuse; `now` is the client's clock.
    func validate(now: Date, retentionDays: Int) throws(AppStoreServerAPIError) {
        guard start < end else {
            throw AppStoreServerAPIError(.invalidRequest, "the window's start must precede its end")
        }
        let oldest = now.addingTimeInterval(-Double(retentionDays) * 86_400)
        guard start >= oldest else {
            throw AppStoreServerAPIError(.invalidRequest, "Apple keeps notification history for \(retentionDays) days: the start is older")
        }
        guard notificationType == nil || transactionID == nil else {
            throw AppStoreServerAPIError(.invalidRequest, "ask by notification type or by transaction id, not both")
        }
        guard notificationSubtype == nil || notificationType != nil else {
            throw AppStoreServerAPIError(.invalidRequest, "a notification subtype needs its notification type")
        }
    }

    /// The request body, instants in milliseconds as Apple writes them.
    var body: JSONValue {
        var members: [String: JSONValue] = [
            "startDate": .integer(Self.milliseconds(start)),
            "endDate": .integer(Self.milliseconds(end)),
        ]
        if let notificationType { members["notificationType"] = .string(notificationType) }
        if let notificationSubtype { members["notificationSubtype"] = .string(notificationSubtype) }
        if onlyFailures { members["onlyFailures"] = true }
        if let transactionID { members["transactionId"] = .string(transactionID) }
        return .object(members)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
