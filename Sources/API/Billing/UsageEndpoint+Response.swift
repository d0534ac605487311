import LedgerDomain

/// The shapes `GET …/usage` answers with.
extension UsageEndpoint {
    struct Units: Codable, Sendable {
        var apiRequests = Quantity.zero
        var streamEvents = Quantity.zero
        var webhookDeliveries = Quantity.zero
        var counted = Quantity.zero
        var freeLimit = BillingRules.freeUnitsPerMonth
        var freeUsed = Quantity.zero
        var billed = Quantity.zero
        var amount = Millicredits.zero

        enum CodingKeys: String, CodingKey {
            case counted, billed, amount
            case apiRequests = "api_requests", streamEvents = "stream_events", webhookDeliveries = "webhook_deliveries"
            case freeLimit = "free_limit", freeUsed = "free_used"
        }
    }

    struct Storage: Codable, Sendable {
        var peakBytes = Quantity.zero
        var allowanceBytes: Int64 = 0
        var billedBytes = Quantity.zero
        var amount = Millicredits.zero

        enum CodingKeys: String, CodingKey {
            case amount
            case peakBytes = "peak_bytes", allowanceBytes = "allowance_bytes", billedBytes = "billed_bytes"
        }
    }

    /// What a month's usage reads: for a project on a pool, for a pool, or their sums. It
    /// is written in the object that holds it, not as an object of its own.
    struct Figures: Codable, Sendable {
        var units = Units()
        var storage = Storage()
        var bytesServed = Quantity.zero
        var bytesReceived = Quantity.zero
        var amount = Millicredits.zero

        enum CodingKeys: String, CodingKey {
            case units, storage, amount
            case bytesServed = "bytes_served", bytesReceived = "bytes_received"
        }

        /// Adds `other` in; the allowance is `other`'s (every line of a pool has the pool's).
        mutating func add(_ other: Figures) throws {
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
    struct ProjectLine: Encodable, Sendable {
        var projectID: String
        var figures: Figures

        enum CodingKeys: String, CodingKey { case projectID = "project_id" }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(projectID, forKey: .projectID)
            try figures.encode(to: encoder)
        }
    }

    /// U6: a project's usage on one pool in the month; a funding change within the month
    /// splits it in two, each counted against its own pool's free limit and closed with it.
    struct Part: Encodable, Sendable {
        var payer: AccountRef
        var status: String
        var final: Bool
        var figures: Figures

        enum CodingKeys: String, CodingKey { case payer, status, final }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(payer, forKey: .payer)
            try c.encode(status, forKey: .status)
            try c.encode(final, forKey: .final)
            try figures.encode(to: encoder)
        }
    }

    struct Response: Encodable, Sendable {
        var account: AccountRef
        var payer: AccountRef
        var month: String
        /// `open`, `closing` or `closed`; amounts are final only when closed.
        var status: String
        var final: Bool
        var figures = Figures()
        /// On a payer's read only: each project of the pool.
        var projects: [ProjectLine]?
        /// On a project's read only: its part on each pool it was billed to in the month,
        /// the pool that funds it now first; the figures above are their sums.
        var parts: [Part]?
        var position: Int64

        enum CodingKeys: String, CodingKey { case account, payer, month, status, final, projects, parts, position }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(account, forKey: .account)
            try c.encode(payer, forKey: .payer)
            try c.encode(month, forKey: .month)
            try c.encode(status, forKey: .status)
            try c.encode(final, forKey: .final)
            try c.encodeIfPresent(projects, forKey: .projects)
            try c.encodeIfPresent(parts, forKey: .parts)
            try c.encode(position, forKey: .position)
            try figures.encode(to: encoder)
        }
    }
}
