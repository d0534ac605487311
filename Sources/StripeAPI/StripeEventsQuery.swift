/// What List all events (`GET /v1/events`) is asked for: at most `limit` events a page
/// (1 to 100), those created at or after `createdAtLeast` (`created[gte]`, Unix seconds),
/// and, when `types` is not empty, only those types (`types[]`, at most 20). Stripe lists
/// the events of the last 30 days, newest first.
public struct StripeEventsQuery: Sendable, Equatable {
    /// Stripe's largest page.
    public static let maximumLimit = 100
    /// The most types one request may name.
    public static let maximumTypes = 20

    public var limit: Int
    /// `created[gte]`: only events created at or after this, in Unix seconds.
    public var createdAtLeast: Int64?
    /// `types[]`: only events of these types (`invoice.paid`, …); empty: every type.
    public var types: [String]

    public init(limit: Int = maximumLimit, createdAtLeast: Int64? = nil, types: [String] = []) {
        self.limit = limit
        self.createdAtLeast = createdAtLeast
        self.types = types
    }

    /// Refuses, before anything is sent, what Stripe would refuse.
    func validate() throws(StripeAPIError) {
        guard (1...Self.maximumLimit).contains(limit) else {
            throw StripeAPIError(.invalidRequest, "limit must be between 1 and \(Self.maximumLimit), got \(limit)")
        }
        if let createdAtLeast, createdAtLeast < 0 {
            throw StripeAPIError(.invalidRequest, "created[gte] must be Unix seconds, got \(createdAtLeast)")
        }
        guard types.count <= Self.maximumTypes else {
            throw StripeAPIError(.invalidRequest, "at most \(Self.maximumTypes) types may be asked for at once, got \(types.count)")
        }
        for type in types where type.isEmpty || type.contains("*") {
            throw StripeAPIError(.invalidRequest, "each of types[] is one event type (no wildcard), got \(type.debugDescription)")
        }
    }

    /// The query's parameters, `starting_after` last when paging.
    func parameters(startingAfter: String?) -> [(String, String)] {
        var items: [(String, String)] = [("limit", String(limit))]
        if let createdAtLeast { items.append(("created[gte]", String(createdAtLeast))) }
        for type in types { items.append(("types[]", type)) }
        if let startingAfter { items.append(("starting_after", startingAfter)) }
        return items
    }
}
