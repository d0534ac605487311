import AppStore
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Projections

/// T1–T7: records a StoreKit 2 signed transaction bought for the organization.
enum TransactionEndpoint {
    struct Body: Decodable {
        var signedTransaction: String
        enum CodingKeys: String, CodingKey { case signedTransaction = "signed_transaction" }
    }

    struct Response: Codable, Sendable {
        var recorded: Bool
        var plan: OfferEndpoint.PlanView
        var subscription: OfferEndpoint.SubscriptionView?
        var position: Int64
    }

    static func handle(_ request: HTTPRequest, context: ServiceContext, settings: AppStoreSettings) throws -> HTTPResponse {
        let verifier = settings.verifier
        let session = try OrganizationAccess.session(request, context, settings)
        try SameOrigin.check(request, session: session, origin: settings.publicOrigin)          // T2
        let orgID = request.pathParameters["org_id"] ?? ""
        guard let state = try OrganizationState.read(orgID, pool: context.pool),
              let role = OrganizationAccess.role(session, in: state) else {
            throw Problem(status: 404, code: "not_found", detail: "no organization \(orgID) for this session")
        }
        guard role == .administrator else {
            throw Problem(status: 403, code: "forbidden", detail: "only a designated administrator of the organization records its purchases (T2)")
        }
        let body = try request.decodeJSON(Body.self)
        let transaction: AppStoreTransaction
        do {
            transaction = try verifier.verifyTransaction(body.signedTransaction)
        } catch {
            throw invalid("\(error.code.rawValue): \(error.message)")
        }
        guard let plan = settings.plan(ofProduct: transaction.productID) else {
            throw invalid("product \(transaction.productID) is not a plan of \(settings.bundleID)")
        }
        guard let token = state.accountToken, transaction.appAccountToken == token else {     // T3: compared as UUIDs
            throw Problem(status: 409, code: "app_store_account_mismatch",
                          detail: "the transaction's appAccountToken is not this organization's account token")
        }
        let subscription = state.plans.subscriptions.first { $0.originalTransactionID == transaction.originalTransactionID }
        let known = try context.pool.read { conn in
            try conn.query("SELECT 1 FROM proj_organizations.appstore_changes WHERE transaction_id = $1 LIMIT 1",
                           [transaction.transactionID]).rowCount > 0
        }
        if !known {
            guard state.resellerID == nil else {
                throw Problem(status: 409, code: "billed_by_reseller",
                              detail: "the organization is delegated to a reseller, which pays its plan")
            }
            let education = OrganizationAccess.education(state, session, role: role, domains: settings.schoolDomains)
            if plan == .education && !education.eligible {
                throw Problem(status: 403, code: "education_not_eligible",
                              detail: "the organization is not eligible for the education plan")
            }
            if let grant = education.grant { try OrganizationAccess.record(grant, session: session, request: request, context: context) }
            // O10: a plan held through another source at the same or a higher level blocks
            // a new purchase, but not the holder of this subscription changing plan in it.
            let now = context.now()
            let heldElsewhere = state.plans.held(at: now, excludingSubscription: transaction.originalTransactionID).map(\.0.level).max() ?? 0
            let isHolder = subscription?.holder == session.personID || (subscription != nil && subscription?.holder == nil)
            if subscription == nil || !isHolder, heldElsewhere >= plan.level {
                throw Problem(status: 409, code: "app_store_plan_conflict",
                              detail: "the organization already holds a plan at this level or higher through another source")
            }
        }
        let expired = transaction.expiresDate.map { $0 <= context.now() } ?? false
        let recorded = AppStoreTransactionRecorded(
            orgID: orgID, originalTransactionID: transaction.originalTransactionID, transactionID: transaction.transactionID,
            productID: transaction.productID, plan: plan, purchaseDate: transaction.purchaseDate, expiresDate: transaction.expiresDate,
            revocationDate: transaction.revocationDate, signedDate: transaction.signedDate, environment: transaction.environment,
            personID: session.personID, via: "storekit", expiredWhenRecorded: expired)
        let event = EventToAppend(stream: "appstore-sub-" + transaction.originalTransactionID, type: AppStoreTransactionRecorded.type,
                                  data: try JSONValueEncoder().encode(recorded),
                                  metadata: EventMetadata(actor: Actor(.person, session.personID), requestID: request.requestID),
                                  occurredAt: transaction.signedDate, idempotencyKey: "appstore-tx:" + transaction.transactionID)
        let result: AppendResult
        switch Result(catching: { () throws(AppendError) -> AppendResult in try context.appendAndWait(AppendRequest(events: [event])) }) {
        case .success(let r): result = r
        case .failure(let e) where e.code == .idempotencyConflict: throw invalid("transaction \(transaction.transactionID) was recorded before with other content")
        case .failure(let e): throw e
        }
        // T5: answer with the subscription as it is, once the projection has seen it.
        let answer: @Sendable () throws -> HTTPResponse = {
            guard let after = try OrganizationState.read(orgID, pool: context.pool) else {
                throw Problem(status: 500, code: "internal_error", detail: "the organization vanished")
            }
            let offer = OfferEndpoint.offer(after, session: session, role: role, educationEligible: false, educationSource: nil,
                                            settings: settings, now: context.now())
            return .json(Response(recorded: !result.replayed, plan: offer.plan, subscription: offer.subscription, position: result.position),
                         headers: ["Cache-Control": "private, no-store"])
        }
        if let reached = context.progress.position(OrganizationsProjection().name), reached >= result.position { return try answer() }
        try ReadYourWrites.waitFor(position: result.position, since: request.receivedAt, context: context,
                                   projection: OrganizationsProjection(), then: answer)
        return try answer()
    }

    static func invalid(_ detail: String) -> Problem {
        Problem(status: 422, code: "app_store_transaction_invalid", detail: detail)
    }
}
