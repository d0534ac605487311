/// Operator-chosen ids of payers, projects, holds and keys: 1–64 characters of
/// `a-z 0-9 _ -`, starting with a letter or digit. Narrow on purpose: they appear in
/// stream names, URLs and log lines, and need no escaping anywhere.
public enum Identifier {
    public static func isValid(_ id: String) -> Bool {
        let u = id.utf8
        guard let first = u.first, u.count <= 64, isLowerAlnum(first) else { return false }
        return u.allSatisfy { isLowerAlnum($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private static func isLowerAlnum(_ c: UInt8) -> Bool { (48...57).contains(c) || (97...122).contains(c) }
}

/// A pool of credit: a payer's, or a self-paying project's own.
public enum Pool: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    case payer(String)
    case project(String)

    /// `payer:<id>` or `project:<id>`.
    public var description: String {
        switch self {
        case .payer(let id): return "payer:" + id
        case .project(let id): return "project:" + id
        }
    }

    public init?(_ text: String) {
        if text.hasPrefix("payer:"), Identifier.isValid(String(text.dropFirst(6))) {
            self = .payer(String(text.dropFirst(6)))
        } else if text.hasPrefix("project:"), Identifier.isValid(String(text.dropFirst(8))) {
            self = .project(String(text.dropFirst(8)))
        } else {
            return nil
        }
    }

    /// The stream that carries the pool's owner's events.
    public var ownerStream: String {
        switch self {
        case .payer(let id): return "payer-" + id
        case .project(let id): return "project-" + id
        }
    }

    public static func < (a: Pool, b: Pool) -> Bool { a.description < b.description }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let pool = Pool(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected payer:<id> or project:<id>, got \(text.debugDescription)"))
        }
        self = pool
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
