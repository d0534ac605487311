import LedgerJSON

/// Where credit came from (B1).
public enum CreditSource: String, Sendable, Hashable, Codable, CaseIterable {
    case plan, purchase, grant
}

/// `credit.posted`, on the pool owner's stream: credit enters the pool (J4: only operators
/// and rails append it, never the public HTTP surface).
public struct CreditPosted: DomainEvent {
    public static let type = "credit.posted"
    public var pool: Pool
    public var source: CreditSource
    public var amount: Millicredits
    public var description: String
    enum CodingKeys: String, CodingKey { case pool, source, amount, description }
    public init(pool: Pool, source: CreditSource, amount: Millicredits, description: String) {
        self.pool = pool
        self.source = source
        self.amount = amount
        self.description = description
    }
}

extension CreditPosted: JSONFastDecodable {
    /// The four members and nothing else, each of its own kind and valid as `Codable`
    /// reads it; anything else goes through `Codable`.
    public init?(fastJSON value: JSONValue) {
        guard case .object(let members) = value, members.count == 4,
              case .string(let poolText)? = members["pool"], let pool = Pool(poolText),
              case .string(let sourceText)? = members["source"], let source = CreditSource(rawValue: sourceText),
              case .string(let amountText)? = members["amount"], let amount = Millicredits(canonical: amountText),
              case .string(let description)? = members["description"] else { return nil }
        self.init(pool: pool, source: source, amount: amount, description: description)
    }

    /// The same shape, read from the text without a value tree.
    public init?(fastJSONText text: String) {
        guard let members = JSONFlatObject.members(of: text, keys: ["pool", "source", "amount", "description"]),
              case .string(let poolText) = members[0], let pool = Pool(poolText),
              case .string(let sourceText) = members[1], let source = CreditSource(rawValue: sourceText),
              case .string(let amountText) = members[2], let amount = Millicredits(canonical: amountText),
              case .string(let description) = members[3] else { return nil }
        self.init(pool: pool, source: source, amount: amount, description: description)
    }
}

/// `entry.corrected`, on the corrected account's stream, with `corrects_position` set to
/// the original entry's position (J3). The amount is signed and posts as a new entry.
public struct EntryCorrected: DomainEvent {
    public static let type = "entry.corrected"
    /// The journal entry corrected, `je_<position>_<n>`.
    public var entryID: String
    public var amount: Millicredits
    public var reason: String
    enum CodingKeys: String, CodingKey { case entryID = "entry_id", amount, reason }
    public init(entryID: String, amount: Millicredits, reason: String) {
        self.entryID = entryID
        self.amount = amount
        self.reason = reason
    }
}

/// `hold.placed`, on `hold-<id>`: an amount reserved for a project on its pool.
public struct HoldPlaced: DomainEvent {
    public static let type = "hold.placed"
    public var holdID: String
    public var projectID: String
    public var pool: Pool
    public var amount: Millicredits
    public var description: String
    enum CodingKeys: String, CodingKey { case holdID = "hold_id", projectID = "project_id", pool, amount, description }
    public init(holdID: String, projectID: String, pool: Pool, amount: Millicredits, description: String) {
        self.holdID = holdID
        self.projectID = projectID
        self.pool = pool
        self.amount = amount
        self.description = description
    }
}

/// `hold.captured`, on `hold-<id>`: `amount` is posted; the rest of the hold is released.
public struct HoldCaptured: DomainEvent {
    public static let type = "hold.captured"
    public var holdID: String
    public var amount: Millicredits
    enum CodingKeys: String, CodingKey { case holdID = "hold_id", amount }
    public init(holdID: String, amount: Millicredits) { self.holdID = holdID; self.amount = amount }
}

/// `hold.released`, on `hold-<id>`.
public struct HoldReleased: DomainEvent {
    public static let type = "hold.released"
    public var holdID: String
    enum CodingKeys: String, CodingKey { case holdID = "hold_id" }
    public init(holdID: String) { self.holdID = holdID }
}
