/// What a search looks among; a text `kind:rest` searches `rest` among that kind alone
/// (`payer:acme`, `org:school`, `entry:je_12`).
public enum SearchKind: String, Sendable, CaseIterable, Codable {
    case payer, project, org, app, user, entry, transaction, event, stream

    /// The kind named `word`, with the aliases people type: `organization`, `journal`,
    /// `je`, `txn`, `position`.
    public init?(named word: String) {
        switch word.lowercased() {
        case "organization", "organisation": self = .org
        case "journal", "je": self = .entry
        case "txn", "tx", "transactions": self = .transaction
        case "position": self = .event
        case let other: guard let kind = SearchKind(rawValue: other) ?? DirectoryKind(named: other).map(SearchKind.init) else { return nil }
            self = kind
        }
    }

    init(_ kind: DirectoryKind) { self = SearchKind(rawValue: kind.rawValue)! }

    /// The list this kind has, if any.
    public var directoryKind: DirectoryKind? { DirectoryKind(rawValue: rawValue) }

    /// `kind:rest` split: the kind named before the first `:` and the rest, or nil when
    /// the text does not start with a kind's name.
    public static func split(_ text: String) -> (kind: SearchKind, rest: String)? {
        guard let colon = text.firstIndex(of: ":"), let kind = SearchKind(named: String(text[..<colon])) else { return nil }
        return (kind, String(text[text.index(after: colon)...]))
    }
}
