import AppStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices

/// T1–T7: records a StoreKit 2 signed transaction bought for the organization.
/// Decode → verify → `AppStoreTransactionAct` (the organization, `AppStoreDecider`, an
/// append with the education grant it makes) → once the projection has it, answer with
/// the subscription as it is.
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
        let (session, reader) = try OrganizationAccess.signedIn(request, context, settings)
        try SameOrigin.check(request, session: session, origin: settings.publicOrigin)          // T2
        let orgID = request.pathParameters["org_id"] ?? ""
        guard let org = try context.queries.answer(OfferEndpoint.query(orgID, for: reader, settings), as: .person(reader))?.organization else {
            throw OrganizationAccess.notFound(orgID)
        }
        let body = try request.decodeJSON(Body.self)
        let facts: AppStoreTransactionFacts
        do {
            facts = AppStoreTransactionFacts(try context.verifyingAppStore("transaction") { () throws(AppStoreError) in try settings.verifier.verifyTransaction(body.signedTransaction) })
        } catch {
            throw invalid("\(error.code.rawValue): \(error.message)")
        }
        let act = AppStoreTransactionAct(facts, orgID: orgID, reader: reader, products: settings.catalog, domains: settings.schoolDomains)
        let metadata = EventMetadata(actor: Actor(.person, reader.personID), requestID: request.requestID)
        return try context.perform(act, metadata: metadata) { outcome, decision in
            switch outcome {
            case .appended(let r):
                return try answer(recorded: AppStoreTransactionAct.recordsAnew(decision!, r), at: r.position, orgID: orgID,
                                  reader: reader, request: request, context: context, settings: settings)
            case .alreadyRecorded:
                // T5: nothing is appended and the answer is the subscription as it is, with every
                // fact the log held when the request came (a REFUND just notified).
                return try answer(recorded: false, at: max(org.position, try context.acts.logHead()), orgID: orgID,
                                  reader: reader, request: request, context: context, settings: settings)
            default:
                throw outcome.failure
            }
        }
    }

    /// T5: the subscription as it is, once the projection has seen the append.
    static func answer(recorded: Bool, at position: Int64, orgID: String, reader: AppStoreReader, request: HTTPRequest,
                       context: ServiceContext, settings: AppStoreSettings) throws -> HTTPResponse {
        try context.answer(OfferEndpoint.query(orgID, for: reader, settings), as: .person(reader), atLeast: position,
                           since: request.receivedAt, notFound: { OrganizationAccess.notFound(orgID) }) { answer in
            .json(Response(recorded: recorded, plan: OfferEndpoint.PlanView(answer.offer.plan),
                           subscription: answer.offer.subscription.map(OfferEndpoint.SubscriptionView.init), position: position),
                  headers: ["Cache-Control": "private, no-store"])
        }
    }

    static func invalid(_ detail: String) -> Problem {
        Problem(status: 422, code: "app_store_transaction_invalid", detail: detail)
    }
}
