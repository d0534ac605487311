import AppStore
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Observability

/// N1–N8: App Store Server Notifications V2, at one URL for production and one for sandbox.
enum NotificationEndpoint {
    /// N3: types that apply the latest transaction.
    static let applying: Set<String> = ["SUBSCRIBED", "DID_RENEW", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS",
                                        "OFFER_REDEEMED", "RENEWAL_EXTENDED", "REFUND_REVERSED"]
    /// N4: types that end the subscription.
    static let ending: Set<String> = ["EXPIRED", "GRACE_PERIOD_EXPIRED", "REFUND", "REVOKE"]

    struct Body: Decodable { var signedPayload: String }

    struct Acknowledged: Codable, Sendable {
        var status: String
        var notificationUUID: String
        var outcome: String
        enum CodingKeys: String, CodingKey { case status, outcome, notificationUUID = "notification_uuid" }
    }

    static func handle(_ request: HTTPRequest, environment path: String, context: ServiceContext, settings: AppStoreSettings,
                       limiter: RateLimiter) throws -> HTTPResponse {
        let verifier = settings.verifier
        if let wait = limiter.admit(request.remoteAddress) {                                   // N8
            var response = HTTPResponse.problem(Problem(status: 429, code: "rate_limited",
                                                        detail: "too many notifications from \(request.remoteAddress); retry later"))
            response.headers.replaceOrAdd(name: "Retry-After", value: String(wait))
            return response
        }
        let body = try request.decodeJSON(Body.self)
        let notification: AppStoreNotification
        do {
            notification = try verifier.verifyNotification(body.signedPayload)                  // N2
        } catch {
            throw invalid("\(error.code.rawValue): \(error.message)")
        }
        let expected: Set<String> = path == "production" ? ["Production"] : ["Sandbox", "Xcode"]
        guard expected.contains(notification.environment) else {
            throw invalid("a \(notification.environment) notification sent to the \(path) URL")
        }
        let (event, outcome) = try decide(notification, context: context, settings: settings, request: request)
        let result: AppendResult
        switch Result(catching: { () throws(AppendError) -> AppendResult in
            try context.appendAndWait(AppendRequest(events: [event], idempotencyKey: "apple-notification:" + notification.notificationUUID))
        }) {
        case .success(let r): result = r
        case .failure(let e) where e.code == .idempotencyConflict:
            // The same UUID with other content: Apple does not do that; keep what we have.
            context.logger.warning("notification uuid seen before with other content", ["notification_uuid": .string(notification.notificationUUID)])
            return .json(Acknowledged(status: "acknowledged", notificationUUID: notification.notificationUUID, outcome: "duplicate"))
        case .failure(let e): throw e
        }
        context.logger.info("app store notification", [
            "notification_uuid": .string(notification.notificationUUID), "type": .string(notification.notificationType),
            "subtype": .string(notification.subtype ?? ""), "outcome": .string(result.replayed ? "duplicate" : outcome),
        ])
        return .json(Acknowledged(status: "acknowledged", notificationUUID: notification.notificationUUID,
                                  outcome: result.replayed ? "duplicate" : outcome))
    }

    /// What the notification changes: a transaction applied (N3), a subscription ended
    /// (N4), or nothing but its acknowledgement (N6).
    static func decide(_ n: AppStoreNotification, context: ServiceContext, settings: AppStoreSettings,
                       request: HTTPRequest) throws -> (EventToAppend, String) {
        let metadata = EventMetadata(actor: Actor(.apple, "app-store-server-notifications"), requestID: request.requestID,
                                     correlationID: n.notificationUUID,
                                     extra: ["notification_type": .string(n.notificationType), "subtype": n.subtype.map(JSONValue.string) ?? .null])
        func acknowledged(_ reason: String) throws -> (EventToAppend, String) {
            let e = AppStoreNotificationAcknowledged(notificationUUID: n.notificationUUID, notificationType: n.notificationType,
                                                     subtype: n.subtype, reason: reason, environment: n.environment)
            return (EventToAppend(stream: "appstore-notifications", type: AppStoreNotificationAcknowledged.type,
                                  data: try JSONValueEncoder().encode(e), metadata: metadata, occurredAt: n.signedDate), "ignored: " + reason)
        }
        guard applying.contains(n.notificationType) || ending.contains(n.notificationType) else {
            return try acknowledged("type \(n.notificationType) changes no plan")
        }
        guard let transaction = n.transaction else { return try acknowledged("no signed transaction") }
        guard let plan = settings.plan(ofProduct: transaction.productID) else {
            return try acknowledged("product \(transaction.productID) is not a plan")
        }
        guard let token = transaction.appAccountToken,
              let orgID = try context.pool.read({ conn in
                  try conn.query("SELECT org_id FROM proj_organizations.orgs WHERE account_token = $1",
                                 [token.uuidString.lowercased()]).rows.first?.string(0)
              }) else {
            return try acknowledged("names no organization")
        }
        let stream = "appstore-sub-" + transaction.originalTransactionID
        if ending.contains(n.notificationType) {
            let e = AppStoreSubscriptionEnded(orgID: orgID, originalTransactionID: transaction.originalTransactionID,
                                              reason: n.notificationType, signedDate: n.signedDate, notificationUUID: n.notificationUUID)
            return (EventToAppend(stream: stream, type: AppStoreSubscriptionEnded.type, data: try JSONValueEncoder().encode(e),
                                  metadata: metadata, occurredAt: n.signedDate), "ended")
        }
        let e = AppStoreTransactionRecorded(
            orgID: orgID, originalTransactionID: transaction.originalTransactionID, transactionID: transaction.transactionID,
            productID: transaction.productID, plan: plan, purchaseDate: transaction.purchaseDate, expiresDate: transaction.expiresDate,
            revocationDate: transaction.revocationDate, signedDate: transaction.signedDate, environment: transaction.environment,
            personID: nil, via: n.notificationType, expiredWhenRecorded: false)
        return (EventToAppend(stream: stream, type: AppStoreTransactionRecorded.type, data: try JSONValueEncoder().encode(e),
                              metadata: metadata, occurredAt: transaction.signedDate), "applied")
    }

    static func invalid(_ detail: String) -> Problem {
        Problem(status: 422, code: "app_store_transaction_invalid", detail: detail)
    }
}
