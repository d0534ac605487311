/// What a webhook subscription covers: a project, a payer (and so the projects it
/// funds), an organization or an app. Written `kind:id`, as pools are.
public struct WebhookSubject: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable { case project, payer, org, app }

    public var kind: Kind
    public var id: String

    public init(_ kind: Kind, _ id: String) {
        self.kind = kind
        self.id = id
    }

    /// `project:ID`, `payer:ID`, `org:ID` or `app:ID`.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let kind = Kind(rawValue: String(parts[0])), !parts[1].isEmpty else { return nil }
        self.init(kind, String(parts[1]))
    }

    public var description: String { "\(kind.rawValue):\(id)" }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let subject = WebhookSubject(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(text) is not kind:id"))
        }
        self = subject
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public static func < (a: WebhookSubject, b: WebhookSubject) -> Bool { a.description < b.description }
}
