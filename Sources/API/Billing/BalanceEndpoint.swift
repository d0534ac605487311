import HTTP
import LedgerDomain
import Projections

/// B1–B4: the balance snapshot of a project or a payer.
enum BalanceEndpoint {
    struct Response: Codable, Sendable {
        struct Posted: Codable, Sendable { var posted: Millicredits }
        struct PostedHeld: Codable, Sendable { var posted: Millicredits; var held: Millicredits }
        struct Sources: Codable, Sendable { var plan, purchase, grant, correction: Posted }
        struct Consumption: Codable, Sendable { var usage, hold: PostedHeld }

        var account: AccountRef
        var payer: AccountRef
        /// `pool`: the whole pool (a payer, a self-paying project); `share`: a funded project's own part.
        var scope: String
        var currency = "millicredits"
        var sources: Sources?
        var consumption: Consumption
        var posted: Millicredits
        var held: Millicredits
        var available: Millicredits?
        var reserveVisible: Bool
        var railsAvailable = false
        var missingRails = BillingRules.missingRails
        var paymentAuthority = false
        var position: Int64

        enum CodingKeys: String, CodingKey {
            case account, payer, scope, currency, sources, consumption, posted, held, available, position
            case reserveVisible = "reserve_visible", railsAvailable = "rails_available", missingRails = "missing_rails"
            case paymentAuthority = "payment_authority"
        }
    }

    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        let principal = try Authentication.principal(of: request, context: context)
        try Authentication.authorize(principal, toRead: account)
        try ReadYourWrites.wait(request, context: context) { try handle(request, account: account, context: context) }
        let response = try BillingReadModel(pool: context.pool).snapshot(now: context.now()) { try Self.response(account, reader: $0) }
        guard let response else { throw BillingProblems.notFound(account) }
        return .json(response, headers: ["Cache-Control": "no-store"])
    }

    /// The balance of `account` as the endpoint answers it; nil when there is no such
    /// account. `ledger admin payer|project show` prints the same.
    static func response(_ account: BillingAccount, reader: BillingSnapshot) throws -> Response? {
        guard try reader.exists(account) else { return nil }
        let pool: Pool
        switch account {
        case .payer(let id): pool = .payer(id)
        case .project(let id):
            guard let current = try reader.currentPool(ofProject: id) else { return nil }
            pool = current
        }
        let isPool = account.key == pool.description
        let row = try reader.balance(account.key, pool: pool)
        let accrued = try reader.accruedUsage(account: account, pool: pool)
        let usageConsumed = try row.usagePosted.negated()
        let holdConsumed = try row.holdPosted.negated()
        let posted = try Millicredits.sum([row.creditPlan, row.creditPurchase, row.creditGrant, row.correction,
                                           row.usagePosted, row.holdPosted])
        let held = try accrued + row.holdHeld
        let payer: AccountRef
        switch pool {
        case .payer(let id): payer = AccountRef(kind: "payer", id: id)
        case .project(let id): payer = AccountRef(kind: "self", id: id)
        }
        return Response(
            account: account.json, payer: payer, scope: isPool ? "pool" : "share",
            sources: isPool ? .init(plan: .init(posted: row.creditPlan), purchase: .init(posted: row.creditPurchase),
                                    grant: .init(posted: row.creditGrant), correction: .init(posted: row.correction)) : nil,
            consumption: .init(usage: .init(posted: usageConsumed, held: accrued),
                               hold: .init(posted: holdConsumed, held: row.holdHeld)),
            posted: posted, held: held, available: isPool ? try posted - held : nil,
            reserveVisible: isPool, position: try reader.position())
    }
}
