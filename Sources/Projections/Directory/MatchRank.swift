/// How well a searched text matches a record, best first: the order of a search's results
/// before their last activity and their id (docs/console.md, "Search and lists").
public enum MatchRank: Int, Sendable, Comparable, Codable, CaseIterable {
    /// The id is the text, whatever the case.
    case exactID = 0
    /// The id starts with the text.
    case idPrefix = 1
    /// The name, or one of its words, starts with the text.
    case namePrefix = 2
    /// The text is somewhere in the id or the name.
    case substring = 3

    public static func < (a: MatchRank, b: MatchRank) -> Bool { a.rawValue < b.rawValue }

    /// As `ledger find` prints it: `exact_id`, `id_prefix`, `name_prefix`, `substring`.
    public var label: String {
        switch self {
        case .exactID: return "exact_id"
        case .idPrefix: return "id_prefix"
        case .namePrefix: return "name_prefix"
        case .substring: return "substring"
        }
    }
}
