/// The payload of one event type: what goes in the log's `data` column.
public protocol DomainEvent: Codable, Sendable, Hashable {
    /// The log's `type` column.
    static var type: String { get }
}

/// How a project is paid for.
public enum Funding: Sendable, Hashable, Codable {
    /// The project is its own payer, with a pool of its own (U5).
    case selfPaying
    /// The project shares a payer's pool (U6).
    case payer(String)

    public func pool(of projectID: String) -> Pool {
        switch self {
        case .selfPaying: return .project(projectID)
        case .payer(let id): return .payer(id)
        }
    }

    enum CodingKeys: String, CodingKey { case kind, payerID = "payer_id" }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "self": self = .selfPaying
        case "payer": self = .payer(try c.decode(String.self, forKey: .payerID))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "funding kind must be self or payer, got \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .selfPaying: try c.encode("self", forKey: .kind)
        case .payer(let id):
            try c.encode("payer", forKey: .kind)
            try c.encode(id, forKey: .payerID)
        }
    }
}
