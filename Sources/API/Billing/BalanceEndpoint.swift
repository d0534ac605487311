import HTTP
import LedgerDomain
import LedgerServices

/// B1–B4: the balance snapshot of a project or a payer (`BalanceQuery`).
enum BalanceEndpoint {
    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        let target = try ReadYourWrites.minimumPosition(request)
        let reader = try Authentication.reader(of: request, context: context, at: target)
        return try context.answer(BalanceQuery(account), as: reader, atLeast: target, since: request.receivedAt,
                                  notFound: { BillingProblems.notFound(account) }) {
            .json($0, headers: ["Cache-Control": "no-store"])
        }
    }
}
