import LedgerDomain
import Projections

extension BalanceView {
    /// The balance of `account` in `reader`'s snapshot; nil when there is no such
    /// account. The top level is the pool that funds the account now; `other_pools`
    /// every other pool it has figures on.
    public static func read(_ account: BillingAccount, reader: BillingSnapshot) throws -> BalanceView? {
        guard try reader.exists(account), let pool = try currentPool(of: account, reader: reader) else { return nil }
        let now = try part(account, pool: pool, reader: reader)
        let others = try reader.pools(ofAccount: account).filter { $0 != pool }.map { try part(account, pool: $0, reader: reader) }
        return BalanceView(account: account.json, current: now, otherPools: others, position: try reader.position())
    }

    /// The pool whose figures are the balance's top level: a payer's own, a project's
    /// funding now; nil for a project without funding.
    public static func currentPool(of account: BillingAccount, reader: BillingSnapshot) throws -> Pool? {
        switch account {
        case .payer(let id): return .payer(id)
        case .project(let id): return try reader.currentPool(ofProject: id)
        }
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
            payer: UsageView.payerRef(pool), scope: isPool ? "pool" : "share",
            sources: isPool ? .init(plan: .init(posted: row.creditPlan), purchase: .init(posted: row.creditPurchase),
                                    grant: .init(posted: row.creditGrant), correction: .init(posted: row.correction)) : nil,
            consumption: .init(usage: .init(posted: try row.usagePosted.negated(), held: accrued),
                               hold: .init(posted: try row.holdPosted.negated(), held: row.holdHeld)),
            posted: posted, held: held, available: isPool ? try posted - held : nil, reserveVisible: isPool)
    }
}
