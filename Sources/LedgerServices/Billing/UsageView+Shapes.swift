import LedgerDomain

/// The parts of a usage view.
extension UsageView {
    public struct Units: Codable, Sendable {
        public var apiRequests = Quantity.zero
        public var streamEvents = Quantity.zero
        public var webhookDeliveries = Quantity.zero
        public var counted = Quantity.zero
        public var freeLimit = BillingRules.freeUnitsPerMonth
        public var freeUsed = Quantity.zero
        public var billed = Quantity.zero
        public var amount = Millicredits.zero

        enum CodingKeys: String, CodingKey {
            case counted, billed, amount
            case apiRequests = "api_requests", streamEvents = "stream_events", webhookDeliveries = "webhook_deliveries"
            case freeLimit = "free_limit", freeUsed = "free_used"
        }
    }

    public struct Storage: Codable, Sendable {
        public var peakBytes = Quantity.zero
        public var allowanceBytes: Int64 = 0
        public var billedBytes = Quantity.zero
        public var amount = Millicredits.zero

        enum CodingKeys: String, CodingKey {
            case amount
            case peakBytes = "peak_bytes", allowanceBytes = "allowance_bytes", billedBytes = "billed_bytes"
        }
    }

    /// What a month's usage reads: for a project on a pool, for a pool, or their sums. It
    /// is written in the object that holds it, not as an object of its own.
    public struct Figures: Codable, Sendable {
        public var units = Units()
        public var storage = Storage()
        public var bytesServed = Quantity.zero
        public var bytesReceived = Quantity.zero
        public var amount = Millicredits.zero

        enum CodingKeys: String, CodingKey {
            case units, storage, amount
            case bytesServed = "bytes_served", bytesReceived = "bytes_received"
        }

        /// Adds `other` in; the allowance is `other`'s (every line of a pool has the pool's).
        public mutating func add(_ other: Figures) throws {
            bytesServed = try bytesServed + other.bytesServed
            bytesReceived = try bytesReceived + other.bytesReceived
            units.apiRequests = try units.apiRequests + other.units.apiRequests
            units.streamEvents = try units.streamEvents + other.units.streamEvents
            units.webhookDeliveries = try units.webhookDeliveries + other.units.webhookDeliveries
            units.counted = try units.counted + other.units.counted
            units.freeUsed = try units.freeUsed + other.units.freeUsed
            units.billed = try units.billed + other.units.billed
            units.amount = try units.amount + other.units.amount
            storage.peakBytes = try storage.peakBytes + other.storage.peakBytes
            storage.allowanceBytes = other.storage.allowanceBytes
            storage.billedBytes = try storage.billedBytes + other.storage.billedBytes
            storage.amount = try storage.amount + other.storage.amount
            amount = try amount + other.amount
        }
    }

    /// One project of a pool, on a payer's read.
    public struct ProjectLine: Encodable, Sendable {
        public var projectID: String
        public var figures: Figures

        enum CodingKeys: String, CodingKey { case projectID = "project_id" }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(projectID, forKey: .projectID)
            try figures.encode(to: encoder)
        }
    }

    /// U6: a project's usage on one pool in the month; a funding change within the month
    /// splits it in two, each counted against its own pool's free limit and closed with it.
    public struct Part: Encodable, Sendable {
        public var payer: AccountRef
        public var status: MonthStatus
        public var final: Bool
        public var figures: Figures

        enum CodingKeys: String, CodingKey { case payer, status, final }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(payer, forKey: .payer)
            try c.encode(status, forKey: .status)
            try c.encode(final, forKey: .final)
            try figures.encode(to: encoder)
        }
    }
}
