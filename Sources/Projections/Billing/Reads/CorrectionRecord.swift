import LedgerDomain

/// One correction as `ledger audit corrections` lists it.
public struct CorrectionRecord: Sendable, Codable {
    public var correctionID: String
    public var corrects: String
    public var amount: Millicredits
    public var reason: String
    public var actor: String
    public var at: String
    public var position: Int64
    enum CodingKeys: String, CodingKey {
        case correctionID = "correction_id", corrects, amount, reason, actor, at, position
    }
}
