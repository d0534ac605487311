import LedgerJSON

/// `pricing.configured`, on `config-pricing`: in force for usage recorded after it.
public struct PricingConfigured: DomainEvent {
    public static let type = "pricing.configured"
    /// Per counted unit above the free limit.
    public var unitPrice: Millicredits
    /// Per GiB-month of storage above the allowance.
    public var storagePricePerGiBMonth: Millicredits
    enum CodingKeys: String, CodingKey { case unitPrice = "unit_price", storagePricePerGiBMonth = "storage_price_per_gib_month" }
    public init(unitPrice: Millicredits, storagePricePerGiBMonth: Millicredits) {
        self.unitPrice = unitPrice
        self.storagePricePerGiBMonth = storagePricePerGiBMonth
    }
}

/// `usage.recorded`, on `usage-<project>`; `occurred_at` is the measurement's time and the
/// event's idempotency key is `usage:<usage_id>`.
public struct UsageRecorded: DomainEvent {
    public static let type = "usage.recorded"
    public var usageID: String
    public var projectID: String
    public var meter: Meter
    public var quantity: Int64
    enum CodingKeys: String, CodingKey { case usageID = "usage_id", projectID = "project_id", meter, quantity }
    public init(usageID: String, projectID: String, meter: Meter, quantity: Int64) {
        self.usageID = usageID
        self.projectID = projectID
        self.meter = meter
        self.quantity = quantity
    }
}

extension UsageRecorded: JSONFastDecodable {
    /// The four members and nothing else, each of its own kind; anything else goes through
    /// `Codable`.
    public init?(fastJSON value: JSONValue) {
        guard case .object(let members) = value, members.count == 4,
              case .string(let usageID)? = members["usage_id"], case .string(let projectID)? = members["project_id"],
              case .string(let meterText)? = members["meter"], let meter = Meter(rawValue: meterText),
              case .integer(let quantity)? = members["quantity"] else { return nil }
        self.init(usageID: usageID, projectID: projectID, meter: meter, quantity: quantity)
    }

    /// The same shape, read from the text without a value tree.
    public init?(fastJSONText text: String) {
        guard let members = JSONFlatObject.members(of: text, keys: ["usage_id", "project_id", "meter", "quantity"]),
              case .string(let usageID) = members[0], case .string(let projectID) = members[1],
              case .string(let meterText) = members[2], let meter = Meter(rawValue: meterText),
              case .integer(let quantity) = members[3] else { return nil }
        self.init(usageID: usageID, projectID: projectID, meter: meter, quantity: quantity)
    }
}

/// `usage.month_closing`, on the pool owner's stream: no usage of the month is billed after it.
public struct MonthClosing: DomainEvent {
    public static let type = "usage.month_closing"
    public var pool: Pool
    public var month: UTCMonth
    public init(pool: Pool, month: UTCMonth) { self.pool = pool; self.month = month }
}

/// `usage.month_closed`, on the pool owner's stream: the month's charges, as recorded
/// facts; each project's `amount` posts as a `usage_charge` journal entry.
public struct MonthClosed: DomainEvent {
    public static let type = "usage.month_closed"
    public var pool: Pool
    public var month: UTCMonth
    public var allowanceStorageBytes: Int64
    public var storagePricePerGiBMonth: Millicredits
    public var charges: [ProjectCharge]
    enum CodingKeys: String, CodingKey {
        case pool, month, charges
        case allowanceStorageBytes = "allowance_storage_bytes", storagePricePerGiBMonth = "storage_price_per_gib_month"
    }
    public init(pool: Pool, month: UTCMonth, allowanceStorageBytes: Int64, storagePricePerGiBMonth: Millicredits, charges: [ProjectCharge]) {
        self.pool = pool
        self.month = month
        self.allowanceStorageBytes = allowanceStorageBytes
        self.storagePricePerGiBMonth = storagePricePerGiBMonth
        self.charges = charges
    }
}
