import HTTP
import LedgerDomain
import LedgerServices
import Projections

/// B1–B4: the balance snapshot of a project or a payer.
enum BalanceEndpoint {
    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        try ReadYourWrites.wait(request, reading: account, context: context) { try handle(request, account: account, context: context) }
        return try context.reading(BillingProjection(), for: request) { pool in
            let principal = try Authentication.principal(of: request, context: context, pool: pool)
            try Authentication.authorize(principal, toRead: account)
            let response = try BillingReadModel(pool: pool).snapshot(now: context.now()) { try BalanceView.read(account, reader: $0) }
            guard let response else { throw BillingProblems.notFound(account) }
            return .json(response, headers: ["Cache-Control": "no-store"])
        }
    }
}
