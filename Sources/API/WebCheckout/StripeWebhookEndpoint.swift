import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices
import Stripe

/// `POST /v1/stripe/webhooks/{app_id}`: one of Stripe's events for an app's web checkout.
/// The signature is the credential: verify over the raw body with the app's endpoint
/// secrets → read the event into its typed fact → `StripeEventAct` (`WebCheckoutDecider`,
/// an append keyed by the event's id) → 200. A redelivery answers 200 and appends
/// nothing; a refusal appends nothing; only bodies that do not verify count against their
/// address's rate.
enum StripeWebhookEndpoint {
    static func handle(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        let appID = request.pathParameters["app_id"] ?? ""
        let event: StripeEventRecorded
        do {
            guard let verifier = context.stripeWebhooks.verifier(for: appID) else {
                throw Problem(status: 404, code: "stripe_endpoint_not_configured",
                              detail: "no Stripe endpoint secret is configured for app \(appID.debugDescription) (LEDGER_STRIPE_WEBHOOK_SECRETS)")
            }
            let verified = try verifier.verify(header: request.headers[StripeWebhookVerifier.header], body: request.body,
                                               now: context.now().seconds)
            event = try verified.recorded(appID: appID)
        } catch {
            let code = (error as? StripeWebhookError)?.code.rawValue ?? (error as? Problem)?.code ?? "stripe_webhook_invalid"
            context.stripeWebhookCounter.increment(labels: ["outcome": code])
            if let wait = context.stripeLimiter.admit(request.remoteAddress) {
                throw Problem(status: 429, code: "rate_limited",
                              detail: "too many Stripe webhooks that do not verify from \(request.remoteAddress); retry later", retryAfter: wait)
            }
            if let problem = error as? Problem { throw problem }
            let refusal = error as? StripeWebhookError
            throw Problem(status: 400, code: refusal?.code.rawValue ?? "stripe_webhook_invalid", detail: refusal?.message ?? "\(error)")
        }
        let metadata = StripeEventAct.metadata(for: event, source: .webhook(requestID: request.requestID))
        return try context.perform(StripeEventAct(event), metadata: metadata) { outcome, _ in
            let named: String
            var position: Int64?
            switch outcome {
            case .appended(let r):
                named = r.replayed ? "duplicate" : "recorded"
                position = r.position
            case .alreadyRecorded:
                named = "duplicate"
            case .refused(let refusal):
                context.stripeWebhookCounter.increment(labels: ["outcome": refusal.code.rawValue])
                throw Problem(status: refusal.code == .notFound ? 404 : 422, code: refusal.code.rawValue, detail: refusal.message)
            default:
                throw outcome.failure
            }
            context.stripeWebhookCounter.increment(labels: ["outcome": named])
            context.logger.info("stripe event", ["app_id": .string(appID), "event_id": .string(event.eventID),
                                                 "type": .string(event.eventType), "outcome": .string(named)])
            var body: [String: JSONValue] = ["status": .string(named), "event_id": .string(event.eventID),
                                             "type": .string(event.eventType), "fact": .string(event.fact.kind)]
            if let position { body["position"] = .integer(position) }
            return .json(JSONValue.object(body))
        }
    }
}
