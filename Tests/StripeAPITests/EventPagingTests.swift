import StripeAPI
import StripeStandIn
import Testing
import TestSupport

@Suite("List all events: pages newest first by starting_after, created[gte], types[], a bounded collection", .bounded)
struct EventPagingTests {
    @Test("pages of 10 across 25 events: every event once, newest first, each page from the last id of the one before")
    func pagesNewestFirst() throws {
        let fixture = try StripeFixture()
        let recorded = fixture.recordEvents(25)
        let client = try fixture.client()
        var pages: [StripeEventsPage] = []
        try client.forEachEventsPage(StripeEventsQuery(limit: 10)) { pages.append($0); return true }
        #expect(pages.map(\.events.count) == [10, 10, 5])
        #expect(pages.map(\.hasMore) == [true, true, false])
        #expect(pages.flatMap(\.events).map(\.id) == recorded.reversed())
        let requests = fixture.standIn.requests
        #expect(requests.count == 3 && requests.allSatisfy { $0.status == 200 && $0.path == "/v1/events" })
        #expect(requests[0].query == ["limit=10"])
        #expect(requests[1].query == ["limit=10", "starting_after=\(pages[0].events.last!.id)"])
        #expect(requests[2].query == ["limit=10", "starting_after=\(pages[1].events.last!.id)"])
        #expect(requests.allSatisfy { $0.stripeVersion == StripeAPIClient.apiVersion })
    }

    @Test("a walk stops when the visitor says so")
    func visitorStops() throws {
        let fixture = try StripeFixture()
        fixture.recordEvents(12)
        var seen = 0
        try fixture.client().forEachEventsPage(StripeEventsQuery(limit: 5)) { seen += $0.events.count; return false }
        #expect(seen == 5 && fixture.standIn.requests.count == 1)
    }

    @Test("created[gte] keeps the events created at or after it; types[] only those types")
    func filters() throws {
        let fixture = try StripeFixture()
        let paid = fixture.recordEvents(10, type: "invoice.paid", start: 1_000)
        let failed = fixture.recordEvents(3, type: "invoice.payment_failed", start: 2_000)
        let client = try fixture.client()
        let since = try client.events(since: 1_005)
        #expect(since.events.map(\.id) == (Array(paid.suffix(5)) + failed).reversed())
        #expect(since.isComplete)
        #expect(fixture.standIn.requests.last?.query == ["limit=100", "created[gte]=1005"])
        let typed = try client.events(since: 0, types: ["invoice.payment_failed"])
        #expect(typed.events.map(\.id) == failed.reversed() && typed.events.allSatisfy { $0.type == "invoice.payment_failed" })
        #expect(fixture.standIn.requests.last?.query == ["limit=100", "created[gte]=0", "types[]=invoice.payment_failed"])
    }

    @Test("a collection stops at its bound and says it is not complete; exactly all is complete")
    func boundedCollection() throws {
        let fixture = try StripeFixture()
        let recorded = fixture.recordEvents(12)
        let client = try fixture.client()
        let bounded = try client.events(since: 0, maximumCount: 7, pageSize: 5)
        #expect(bounded.events.map(\.id) == Array(recorded.reversed().prefix(7)))
        #expect(!bounded.isComplete)
        let all = try client.events(since: 0, maximumCount: 12, pageSize: 5)
        #expect(all.events.map(\.id) == recorded.reversed() && all.isComplete)
        let none = try client.events(since: 2_000_000_000)
        #expect(none.events.isEmpty && none.isComplete)
    }

    @Test("each listed event carries its id, type, created and mode, and the whole object")
    func eventFields() throws {
        let fixture = try StripeFixture()
        fixture.recordEvents(1, type: "charge.refunded", start: 1_767_225_600)
        let event = try #require(try fixture.client().events(since: 0).events.first)
        #expect(event.id.hasPrefix("evt_") && event.type == "charge.refunded" && event.created == 1_767_225_600 && !event.livemode)
        #expect(event.json["object"] == "event" && event.json["api_version"] == "2024-06-20")
        #expect(event.json == fixture.standIn.events[0].json)
    }

    @Test("what Stripe would refuse is refused before anything is sent")
    func queryValidation() throws {
        let fixture = try StripeFixture()
        let client = try fixture.client()
        for query in [StripeEventsQuery(limit: 0), StripeEventsQuery(limit: 101),
                      StripeEventsQuery(types: (0..<21).map { "type.\($0)" }), StripeEventsQuery(types: ["invoice.*"]),
                      StripeEventsQuery(createdAtLeast: -1)] {
            let error = try #require(throws: StripeAPIError.self) { try client.eventsPage(query) }
            #expect(error.code == .invalidRequest && error.attempts == 0)
        }
        #expect(throws: StripeAPIError.self) { try client.events(since: 0, maximumCount: 0) }
        #expect(fixture.standIn.requests.isEmpty)
    }

    @Test("an unknown starting_after is Stripe's 400 resource_missing: an answer, not retried")
    func unknownCursor() throws {
        let fixture = try StripeFixture()
        fixture.recordEvents(2)
        let error = try #require(throws: StripeAPIError.self) {
            try fixture.client().eventsPage(StripeEventsQuery(), startingAfter: "evt_unknown")
        }
        #expect(error.code == .invalidRequest && error.status == 400 && error.stripeCode == "resource_missing")
        #expect(error.stripeType == "invalid_request_error" && error.attempts == 1 && !error.isRetryable)
        #expect(error.message.contains("evt_unknown") && error.requestID?.hasPrefix("req_") == true)
        #expect(fixture.recordedSleeps.isEmpty)
    }
}
