import AppStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Observability
import LedgerServices

/// N1–N8: App Store Server Notifications V2, at one URL for production and one for
/// sandbox. Decode → verify → `AppStoreNotificationAct` (the organization, `AppStoreDecider`,
/// an append deduplicated on the notification's UUID) → acknowledge. Only a body that does
/// not decode or verify counts against its address's rate (N8).
enum NotificationEndpoint {
    struct Body: Decodable { var signedPayload: String }

    struct Acknowledged: Codable, Sendable {
        var status: String
        var notificationUUID: String
        var outcome: String
        enum CodingKeys: String, CodingKey { case status, outcome, notificationUUID = "notification_uuid" }
    }

    static func handle(_ request: HTTPRequest, environment path: String, context: ServiceContext, settings: AppStoreSettings,
                       limiter: RateLimiter) throws -> HTTPResponse {
        // N8, as Apple's own traffic needs it: only what does not verify is rate-limited. A
        // notification Apple signed is never refused for load (Apple may not retry a 4xx, and
        // a burst is what arrives after an outage): it is recorded, or a 503 asks Apple to
        // send it again (docs/appstore.md, "Answers that lose no notification").
        let verified: AppStoreNotification
        do {
            let body = try request.decodeJSON(Body.self)
            verified = try context.verifyingAppStore("notification") { () throws(AppStoreError) in try settings.verifier.verifyNotification(body.signedPayload) }             // N2
        } catch {
            if let wait = limiter.admit(request.remoteAddress) {
                throw Problem(status: 429, code: "rate_limited",
                              detail: "too many notifications that do not verify from \(request.remoteAddress); retry later", retryAfter: wait)
            }
            if let problem = error as? Problem { throw problem }
            let refusal = error as? AppStoreError
            throw Problem(status: 422, code: "app_store_transaction_invalid",
                          detail: refusal.map { "\($0.code.rawValue): \($0.message)" } ?? "\(error)")
        }
        let act = AppStoreNotificationAct(AppStoreDecider.Notification(verified), receivedAt: path, products: settings.catalog)
        let uuid = ExternalID.text(verified.notificationUUID)
        let metadata = AppStoreNotificationAct.metadata(for: verified, source: .delivered(requestID: request.requestID))
        return try context.perform(act, metadata: metadata) { outcome, decision in
            let named: String
            switch outcome {
            case .appended(let r): named = r.replayed ? "duplicate" : decision?.events.first.map { AppStoreDecider.outcome(type: $0.type, data: $0.data) } ?? "applied"
            case .alreadyRecorded(let recorded):
                context.logger.warning("notification uuid seen before with other content",
                                       ["notification_uuid": .string(uuid), "detail": .string(recorded.detail)])
                named = "duplicate"
            default:
                throw outcome.failure
            }
            context.logger.info("app store notification", [
                "notification_uuid": .string(uuid), "type": .string(ExternalID.text(verified.notificationType)),
                "subtype": .string(ExternalID.text(verified.subtype ?? "")), "outcome": .string(named),
            ])
            return .json(Acknowledged(status: "acknowledged", notificationUUID: uuid, outcome: named))
        }
    }
}
