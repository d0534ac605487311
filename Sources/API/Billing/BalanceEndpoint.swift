import HTTP
import LedgerDomain
import Projections

/// B1–B4: the balance snapshot of a project or a payer.
enum BalanceEndpoint {
    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        try ReadYourWrites.wait(request, reading: account, context: context) { try handle(request, account: account, context: context) }
        return try context.reading(BillingProjection(), for: request) { pool in
            let principal = try Authentication.principal(of: request, context: context, pool: pool)
            try Authentication.authorize(principal, toRead: account)
            let response = try BillingReadModel(pool: pool).snapshot(now: context.now()) { try Self.response(account, reader: $0) }
            guard let response else { throw BillingProblems.notFound(account) }
            return .json(response, headers: ["Cache-Control": "no-store"])
        }
    }

    /// The balance of `account` as the endpoint answers it; nil when there is no such
    /// account. `ledger admin payer|project show` prints the same. The top level is the
    /// pool that funds the account now; `other_pools` every other pool it has figures on.
    static func response(_ account: BillingAccount, reader: BillingSnapshot) throws -> Response? {
        guard try reader.exists(account) else { return nil }
        let pool: Pool
        switch account {
        case .payer(let id): pool = .payer(id)
        case .project(let id):
            guard let current = try reader.currentPool(ofProject: id) else { return nil }
            pool = current
        }
        let now = try part(account, pool: pool, reader: reader)
        let others = try reader.pools(ofAccount: account).filter { $0 != pool }.map { try part(account, pool: $0, reader: reader) }
        return Response(account: account.json, current: now, otherPools: others, position: try reader.position())
    }

    /// `account`'s figures on `pool`: the whole pool when the account owns it (B1, U5,
    /// U7), else its own share (U6): its consumption and the corrections of its entries,
    /// never the pool's credits or reserve.
    static func part(_ account: BillingAccount, pool: Pool, reader: BillingSnapshot) throws -> PoolBalance {
        let isPool = account.key == pool.description
        let row = try reader.balance(account.key, pool: pool)
        let accrued = try reader.accruedUsage(account: account, pool: pool)
        let posted = try Millicredits.sum([row.creditPlan, row.creditPurchase, row.creditGrant, row.correction,
                                           row.usagePosted, row.holdPosted])
        let held = try accrued + row.holdHeld
        return PoolBalance(
            payer: UsageEndpoint.payerRef(pool), scope: isPool ? "pool" : "share",
            sources: isPool ? .init(plan: .init(posted: row.creditPlan), purchase: .init(posted: row.creditPurchase),
                                    grant: .init(posted: row.creditGrant), correction: .init(posted: row.correction)) : nil,
            consumption: .init(usage: .init(posted: try row.usagePosted.negated(), held: accrued),
                               hold: .init(posted: try row.holdPosted.negated(), held: row.holdHeld)),
            posted: posted, held: held, available: isPool ? try posted - held : nil, reserveVisible: isPool)
    }
}
