import AppStore
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Observability
import Projections

/// N1–N8: App Store Server Notifications V2, at one URL for production and one for
/// sandbox. Decode → verify → find the organization → `AppStoreDecider` → append,
/// deduplicated on the notification's UUID.
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
        if let wait = limiter.admit(request.remoteAddress) {                                   // N8
            throw Problem(status: 429, code: "rate_limited", detail: "too many notifications from \(request.remoteAddress); retry later",
                          retryAfter: wait)
        }
        let body = try request.decodeJSON(Body.self)
        let verified: AppStoreNotification
        do {
            verified = try context.verifyingAppStore("notification") { () throws(AppStoreError) in try settings.verifier.verifyNotification(body.signedPayload) }             // N2
        } catch {
            throw Problem(status: 422, code: "app_store_transaction_invalid", detail: "\(error.code.rawValue): \(error.message)")
        }
        let notification = AppStoreDecider.Notification(
            notificationUUID: verified.notificationUUID, type: verified.notificationType, subtype: verified.subtype,
            signedDate: verified.signedDate, environment: verified.environment, transaction: verified.transaction.map(AppStoreTransactionFacts.init))
        let orgID = try verified.transaction?.appAccountToken.flatMap { try OrganizationsReadModel(pool: context.pool).organization(withAccountToken: $0) }
        let decided: AppStoreDecider.NotificationOutcome
        do {
            decided = try AppStoreDecider.notification(notification, receivedAt: path, orgID: orgID, products: settings.catalog)
        } catch {
            throw Problem(error)
        }
        let uuid = ExternalID.text(verified.notificationUUID)
        let metadata = EventMetadata(actor: Actor(.apple, "app-store-server-notifications"), requestID: request.requestID,
                                     correlationID: ExternalID.value(verified.notificationUUID),
                                     extra: ["notification_type": .string(ExternalID.text(verified.notificationType)),
                                             "subtype": verified.subtype.map { .string(ExternalID.text($0)) } ?? .null])
        throw context.append(AppendRequest(decided.decision, metadata: metadata)) { result in
            let outcome: String
            switch result {
            case .success(let r): outcome = r.replayed ? "duplicate" : decided.outcome
            case .failure(let error) where error.code == .idempotencyConflict:
                // The same UUID with other content: Apple does not do that; keep what we have.
                context.logger.warning("notification uuid seen before with other content", ["notification_uuid": .string(uuid)])
                outcome = "duplicate"
            case .failure(let error):
                throw error
            }
            context.logger.info("app store notification", [
                "notification_uuid": .string(uuid), "type": .string(ExternalID.text(verified.notificationType)),
                "subtype": .string(ExternalID.text(verified.subtype ?? "")), "outcome": .string(outcome),
            ])
            return .json(Acknowledged(status: "acknowledged", notificationUUID: uuid, outcome: outcome))
        }
    }
}
