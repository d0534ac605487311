/// What the metering services measure.
public enum Meter: String, Sendable, Hashable, Codable, CaseIterable {
    case apiRequests = "api_requests"
    case streamEvents = "stream_events"
    case webhookDeliveries = "webhook_deliveries"
    case storageBytes = "storage_bytes"
    case bytesServed = "bytes_served"
    case bytesReceived = "bytes_received"

    /// Counted against the monthly free limit, and billed above it (U4).
    public var isCountedUnit: Bool {
        switch self {
        case .apiRequests, .streamEvents, .webhookDeliveries: return true
        default: return false
        }
    }
}

/// The billing constants of the rules.
public enum BillingRules {
    /// U4: API requests, billed stream events and webhook delivery attempts together.
    public static let freeUnitsPerMonth: Int64 = 10_000
    /// Bytes in the GiB of the storage price.
    public static let bytesPerGiB: Int64 = 1 << 30
    /// B4: the rails that are not available.
    public static let missingRails = ["card", "tax", "withdrawal"]
}
