/// The account a billing read is about: a project or a payer.
public enum BillingAccount: Sendable, Hashable {
    case project(String)
    case payer(String)

    /// The journal's and the balances' account key.
    public var key: String {
        switch self {
        case .project(let id): return "project:" + id
        case .payer(let id): return "payer:" + id
        }
    }

    public var kind: String {
        switch self {
        case .project: return "project"
        case .payer: return "payer"
        }
    }

    public var id: String {
        switch self {
        case .project(let id), .payer(let id): return id
        }
    }

}
