import HTTP
import LedgerDomain
import LedgerServices
import Projections

/// U1–U7: a project's or a payer's usage for one UTC month.
enum UsageEndpoint {
    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        try ReadYourWrites.wait(request, reading: account, context: context) { try handle(request, account: account, context: context) }
        return try context.reading(BillingProjection(), for: request) { pool in
            let principal = try Authentication.principal(of: request, context: context, pool: pool)
            try Authentication.authorize(principal, toRead: account)
            let now = context.now()
            let month: UTCMonth
            if let text = request.query("month") {
                guard let m = UTCMonth(text) else {
                    throw BillingProblems.invalidParameter("month must be a UTC month YYYY-MM, got \(text.debugDescription)")
                }
                month = m
            } else {
                month = UTCMonth(containing: now)
            }
            let response = try BillingReadModel(pool: pool).snapshot(now: now) { try UsageView.read(account, month: month, reader: $0) }
            guard let response else { throw BillingProblems.notFound(account) }
            return .json(response, headers: ["Cache-Control": "no-store"])
        }
    }
}
