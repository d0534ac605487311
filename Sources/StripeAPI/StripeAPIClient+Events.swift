import LedgerJSON

extension StripeAPIClient {
    /// The most pages a walk follows before it stops with an error: a guard against an
    /// answer that never says it is done, not a limit thirty days of events reach.
    public static let maximumPages = 10_000

    /// One page of List all events (`GET /v1/events`): the first with `startingAfter` nil,
    /// the next with the previous page's `nextStartingAfter` and the same `query`.
    public func eventsPage(_ query: StripeEventsQuery, startingAfter: String? = nil) throws(StripeAPIError) -> StripeEventsPage {
        try query.validate()
        let answer = try get("/v1/events", query: query.parameters(startingAfter: startingAfter))
        func malformed(_ what: String) -> StripeAPIError {
            StripeAPIError(.answerMalformed, "List all events: \(what)", status: 200)
        }
        guard answer["object"]?.stringValue == "list", let data = answer["data"]?.arrayValue else {
            throw malformed("the answer is not a list with a data array")
        }
        guard let hasMore = answer["has_more"]?.boolValue else { throw malformed("the answer has no has_more (true or false)") }
        var events: [StripeAPIEvent] = []
        for (index, item) in data.enumerated() {
            guard let event = StripeAPIEvent(json: item) else {
                throw malformed("data[\(index)] is not an event (object event, an evt_ id, type, created, livemode)")
            }
            events.append(event)
        }
        guard events.count <= query.limit else { throw malformed("\(events.count) events on a page of at most \(query.limit)") }
        if hasMore && events.isEmpty { throw malformed("has_more with no event to go on from") }
        return StripeEventsPage(events: events, hasMore: hasMore)
    }

    /// Walks the pages of `query` newest first, from `startingAfter` (nil: the newest),
    /// handing each to `visit`, which answers whether to ask for the next; stops after the
    /// page whose `has_more` is false.
    public func forEachEventsPage(_ query: StripeEventsQuery, startingAfter: String? = nil,
                                  _ visit: (StripeEventsPage) -> Bool) throws(StripeAPIError) {
        var cursor = startingAfter
        for _ in 0..<Self.maximumPages {
            let page = try eventsPage(query, startingAfter: cursor)
            guard visit(page), let next = page.nextStartingAfter else { return }
            guard next != cursor else {
                throw StripeAPIError(.answerMalformed, "List all events gave the same last event twice (\(next))", status: 200)
            }
            cursor = next
        }
        throw StripeAPIError(.answerMalformed, "List all events had more than \(Self.maximumPages) pages")
    }

    /// Every event created at or after `since` (Unix seconds), of `types` when not empty,
    /// newest first, each once, at most `maximumCount` (the walk stops there, and says
    /// that it is not complete): pages of `pageSize` are asked for until `has_more` is false.
    public func events(since: Int64, types: [String] = [], maximumCount: Int = 10_000,
                       pageSize: Int = StripeEventsQuery.maximumLimit) throws(StripeAPIError) -> StripeEventCollection {
        guard maximumCount > 0 else { throw StripeAPIError(.invalidRequest, "maximumCount must be positive, got \(maximumCount)") }
        let query = StripeEventsQuery(limit: min(pageSize, maximumCount), createdAtLeast: since, types: types)
        var events: [StripeAPIEvent] = []
        var seen: Set<String> = []
        var complete = false
        try forEachEventsPage(query) { page in
            for event in page.events where events.count < maximumCount && seen.insert(event.id).inserted {
                events.append(event)
            }
            complete = !page.hasMore && page.events.allSatisfy { seen.contains($0.id) }
            return events.count < maximumCount
        }
        return StripeEventCollection(events: events, isComplete: complete)
    }
}
