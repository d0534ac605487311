import LedgerDomain
import LedgerJSON
import LedgerServices

extension DemoStory {
    /// The story's month before this one and this one.
    var months: (last: UTCMonth, this: UTCMonth) {
        let this = UTCMonth(containing: daysAgo(0))
        return (this.previous ?? this, this)
    }

    /// Usage of last month (closed below, so that its charges are posted) and of this one,
    /// as the metering service sends it: batches through `POST /v1/usage/events`, each event
    /// with its own id (a resend is a duplicate).
    func recordUsage() throws {
        let (last, this) = months
        let lastMonth: [(String, Meter, Int64)] = [
            ("acme-web", .apiRequests, 42_000), ("acme-web", .webhookDeliveries, 1_800), ("acme-web", .streamEvents, 9_000),
            ("acme-web", .storageBytes, 1_400 << 20), ("acme-web", .bytesServed, 31_000_000_000),
            ("acme-mobile", .apiRequests, 23_000), ("acme-mobile", .storageBytes, 600 << 20),
            ("solo", .apiRequests, 14_500), ("solo", .storageBytes, 380 << 20),
        ]
        // This month's, under the ids and instants the demo always used.
        let thisMonth: [(String, Meter, Int64)] = [
            ("acme-web", .apiRequests, 7_200), ("acme-mobile", .apiRequests, 4_100), ("acme-web", .webhookDeliveries, 300),
            ("acme-web", .storageBytes, 900 << 20), ("acme-mobile", .storageBytes, 400 << 20), ("acme-web", .bytesServed, 12_000_000_000),
            ("solo", .apiRequests, 1_250), ("solo", .storageBytes, 300 << 20),
        ]
        func event(_ id: String, _ item: (String, Meter, Int64), at: Timestamp) -> JSONValue {
            ["id": .string(id), "project_id": .string(item.0), "meter": .string(item.1.rawValue), "quantity": .integer(item.2),
             "occurred_at": .string(at.iso8601)]
        }
        let earlier = lastMonth.enumerated().map { i, item in
            event("demo-\(last)-story-\(i)", item, at: Timestamp(microseconds: last.start.microseconds + Int64(i + 1) * 2 * 86_400_000_000)!)
        }
        let current = thisMonth.enumerated().map { i, item in
            event("demo-\(this)-\(i)", item, at: Timestamp(microseconds: this.start.microseconds + Int64(i + 1) * 3_600_000_000)!)
        }
        let key = [("Authorization", "Bearer " + (keys["metering"] ?? ""))]
        try call("POST", "/v1/usage/events", headers: key, body: ["events": .array(earlier)])
        try call("POST", "/v1/usage/events", headers: key, body: ["events": .array(current)])
    }

    /// A hold captured in part (a render that cost less than reserved) and one released (a
    /// batch import that was cancelled), beside the seed's open hold.
    func settleHolds() throws {
        let reason = "the demo's holds"
        try perform(HoldPlaceAct(id: "demo-render", projectID: "acme-mobile", amount: Millicredits(40_000), description: "video render"),
                    key: "hold-render", reason: reason)
        try perform(HoldSettleAct(id: "demo-render", .capture(Millicredits(32_000))), key: "hold-render-capture", reason: "the render finished")
        try perform(HoldPlaceAct(id: "demo-import", projectID: "solo", amount: Millicredits(15_000), description: "batch import"),
                    key: "hold-import", reason: reason)
        try perform(HoldSettleAct(id: "demo-import", .release), key: "hold-import-release", reason: "the import was cancelled")
    }

    /// An operator's correction of the payer's launch grant, so that an auditor has one to
    /// find, open and export (docs/console.md).
    func correctGrant() throws {
        guard let grant = try store.log.events(appendedUnder: "demo:credit-acme-grant").first,
              let entry = JournalEntryID("je_\(grant.position)_0") else { return }
        let reason = "the launch grant was 750 credits, not 1,000 (ticket DEMO-17)"
        try perform(CorrectAct(entry: entry, amount: Millicredits(-250_000), reason: reason), key: "correction-acme-grant", reason: reason)
    }

    /// Last month closed for the payer and the self-paying project: both phases, as
    /// `ledger admin month close` runs them, so that its charges are posted.
    func closeLastMonth() throws {
        let last = months.last
        for pool in [Pool.payer("acme"), .project("solo")] {
            let month = PoolMonth(pool, last)
            let reason = "the demo closes \(last)"
            try perform(MonthClosingAct(month, force: false), key: "close-\(pool)-\(last)", reason: reason, done: [.monthClosed])
            try perform(MonthClosedAct(month), key: "closed-\(pool)-\(last)", reason: reason, done: [.monthClosed])
        }
    }
}
