import HTTP
import LedgerDomain
import LedgerServices

/// U1–U7: a project's or a payer's usage for one UTC month (`UsageQuery`).
enum UsageEndpoint {
    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        let target = try ReadYourWrites.minimumPosition(request)
        let reader = try Authentication.reader(of: request, context: context, at: target)
        let month = try request.query("month").map { text in
            guard let month = UTCMonth(text) else {
                throw BillingProblems.invalidParameter("month must be a UTC month YYYY-MM, got \(text.debugDescription)")
            }
            return month
        }
        return try context.answer(UsageQuery(account, month: month), as: reader, atLeast: target, since: request.receivedAt,
                                  notFound: { BillingProblems.notFound(account) }) {
            .json($0, headers: ["Cache-Control": "no-store"])
        }
    }
}
