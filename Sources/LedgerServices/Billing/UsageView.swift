import LedgerDomain

/// U1–U7: a payer's or a project's usage in one UTC month, as `GET …/usage` answers it,
/// `ledger export usage` writes it and the console shows it. Built by `UsageView.read`
/// (UsageView+Rules.swift), in one snapshot.
public struct UsageView: Encodable, Sendable {
    public var account: AccountRef
    public var payer: AccountRef
    public var month: String
    /// Where the month stands; amounts are final only when closed (`MonthStatus.isFinal`).
    public var status: MonthStatus
    public var final: Bool
    public var figures = Figures()
    /// On a payer's read only: each project of the pool.
    public var projects: [ProjectLine]?
    /// On a project's read only: its part on each pool it was billed to in the month,
    /// the pool that funds it now first; the figures above are their sums.
    public var parts: [Part]?
    public var position: Int64

    enum CodingKeys: String, CodingKey { case account, payer, month, status, final, projects, parts, position }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(account, forKey: .account)
        try c.encode(payer, forKey: .payer)
        try c.encode(month, forKey: .month)
        try c.encode(status, forKey: .status)
        try c.encode(final, forKey: .final)
        try c.encodeIfPresent(projects, forKey: .projects)
        try c.encodeIfPresent(parts, forKey: .parts)
        try c.encode(position, forKey: .position)
        try figures.encode(to: encoder)
    }
}
