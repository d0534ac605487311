import LedgerDomain

/// A kind of record the console and `ledger list` list page by page: payers, projects,
/// organizations, apps, and the users of apps.
public enum DirectoryKind: String, Sendable, CaseIterable, Codable {
    case payer, project, org, app, user

    /// The word a list names it by (`/browse/payers`, `ledger list payers`).
    public var plural: String { rawValue + "s" }

    /// For a person: "payers", "organizations".
    public var title: String {
        switch self {
        case .org: return "organizations"
        default: return plural
        }
    }

    /// The kind named `text`: singular or plural, `organization(s)` for `org`.
    public init?(named text: String) {
        let word = text.lowercased()
        switch word {
        case "organization", "organizations", "orgs": self = .org
        default:
            guard let kind = DirectoryKind(rawValue: word.hasSuffix("s") ? String(word.dropLast()) : word) else { return nil }
            self = kind
        }
    }

    /// The stream whose latest event is a record's last activity (nil for users, whose
    /// facts are on their app's streams).
    public func stream(of id: String) -> String? {
        switch self {
        case .payer: return Pool.payer(id).ownerStream
        case .project: return Pool.project(id).ownerStream
        case .org: return OrganizationDecider.stream(id)
        case .app: return CatalogDecider.stream(id)
        case .user: return nil
        }
    }

    /// The log index's category of those streams: the part before the first `-`.
    var category: String? { stream(of: "x").map { String($0.prefix { $0 != "-" }) } }
}
