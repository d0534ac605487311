import LedgerDomain

/// One correction as `ledger audit corrections` lists it.
public struct CorrectionRecord: Sendable, Codable {
    /// The account it was posted to (`project:<id>`, `payer:<id>`): a correction of an
    /// entry posted to a project and its payer is listed once for each.
    public var account: String
    public var correctionID: String
    public var corrects: String
    public var amount: Millicredits
    public var reason: String
    public var actor: String
    public var at: String
    public var position: Int64
    enum CodingKeys: String, CodingKey {
        case account, correctionID = "correction_id", corrects, amount, reason, actor, at, position
    }
}

/// Which corrections `ledger audit corrections` lists; every part is optional.
public struct CorrectionFilter: Sendable {
    public var account: String?
    /// `operator:<name>` as recorded, or the bare operator name.
    public var actor: String?
    /// Recorded at or after.
    public var since: Timestamp?
    /// Recorded before.
    public var until: Timestamp?

    public init(account: String? = nil, actor: String? = nil, since: Timestamp? = nil, until: Timestamp? = nil) {
        self.account = account
        self.actor = actor
        self.since = since
        self.until = until
    }
}
