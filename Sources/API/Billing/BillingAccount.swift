import LedgerDomain

/// The account a billing read is about: a project or a payer.
enum BillingAccount: Sendable, Hashable {
    case project(String)
    case payer(String)

    /// The journal's and the balances' account key.
    var key: String {
        switch self {
        case .project(let id): return "project:" + id
        case .payer(let id): return "payer:" + id
        }
    }

    var kind: String {
        switch self {
        case .project: return "project"
        case .payer: return "payer"
        }
    }

    var id: String {
        switch self {
        case .project(let id), .payer(let id): return id
        }
    }

    var json: AccountRef { AccountRef(kind: kind, id: id) }
}

/// `{"kind", "id"}` in responses.
struct AccountRef: Codable, Sendable, Equatable {
    var kind: String
    var id: String
}
