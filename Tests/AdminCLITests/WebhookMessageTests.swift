import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// The messages the log's events make, numbered per subject and per subscription by the
/// webhooks projection.
@Suite("Webhook messages derived from the log", .bounded)
struct WebhookMessageTests {
    @Test("billing events make messages for the subscriptions covering their subjects, in log order, once each")
    func billingMessages() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        try f.project("solo")
        _ = try f.adminJSON(["webhook", "add", "--id", "all", "--project", "web", "--url", "https://example.com/a",
                             "--subject", "payer:acme", "--subject", "project:web"])
        _ = try f.adminJSON(["webhook", "add", "--id", "plans", "--project", "solo", "--url", "https://example.com/b",
                             "--subject", "project:solo", "--subject", "payer:acme", "--type", "plan.*"])
        let credit = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "100", "--description", "d"])
        let entry = "je_\(try #require(credit.appended.first?["position"]?.int64Value))_0"
        _ = try f.adminJSON(["correct", "--entry", entry, "--amount", "-10"])
        _ = try f.adminJSON(["plan", "set", "--pool", "payer:acme", "--plan", "pro", "--allowance-storage-bytes", "10"])
        _ = try f.adminJSON(["plan", "set", "--pool", "project:solo", "--plan", "pro", "--allowance-storage-bytes", "10"])
        try f.usage("web", .apiRequests, 20_000, at: "2026-10-10T00:00:00Z")
        _ = try f.adminJSON(["month", "close", "--pool", "payer:acme", "--month", "2026-10"])

        let messages = try f.rows("SELECT type, subject, subject_sequence::text FROM proj_webhooks.messages ORDER BY position, subject, type")
        // Messages exist for every subject, subscribed or not (the pull feed): the payer's
        // creation with a plan came before any subscription.
        #expect(messages == [["plan.changed", "payer:acme", "1"], ["correction.posted", "payer:acme", "2"],
                             ["plan.changed", "payer:acme", "3"], ["plan.changed", "project:solo", "1"],
                             ["month.closed", "payer:acme", "4"], ["month.closed", "project:web", "1"],
                             ["usage.month_summary", "project:web", "2"]])
        let deliveries = try f.rows("""
            SELECT d.webhook_id, d.sequence::text, m.type, m.subject FROM proj_webhooks.deliveries d
            JOIN proj_webhooks.messages m USING (message_id) ORDER BY d.webhook_id, d.sequence
            """)
        // `all` covers both subjects of the month close, and gets it once, about the payer;
        // the project's own summary too.
        #expect(deliveries == [["all", "1", "correction.posted", "payer:acme"], ["all", "2", "plan.changed", "payer:acme"],
                               ["all", "3", "month.closed", "payer:acme"], ["all", "4", "usage.month_summary", "project:web"],
                               ["plans", "1", "plan.changed", "payer:acme"], ["plans", "2", "plan.changed", "project:solo"]])
        // The ids are the same function of the log everywhere.
        let ids = try f.rows("SELECT message_id, position::text, type, subject FROM proj_webhooks.messages")
        for row in ids {
            let expected = WebhookMessages.messageID(position: Int64(row[1]!)!, type: WebhookMessageType(rawValue: row[2]!)!,
                                                     subject: WebhookSubject(row[3]!)!)
            #expect(row[0] == expected)
        }
        // A disabled subscription gets nothing more; the feed numbers go on.
        _ = try f.adminJSON(["webhook", "disable", "--id", "all"])
        _ = try f.adminJSON(["plan", "set", "--pool", "payer:acme", "--plan", "team", "--allowance-storage-bytes", "10"])
        #expect(try f.rows("SELECT count(*)::text FROM proj_webhooks.deliveries WHERE webhook_id = 'all'") == [["4"]])
        #expect(try f.rows("SELECT max(subject_sequence)::text FROM proj_webhooks.messages WHERE subject = 'payer:acme'") == [["5"]])

        // Rebuilt from the log in batches of 2, every table is byte for byte the same.
        try f.settle()
        f.stopProjector()
        let webhooks = WebhooksProjection()
        let connection = try f.db.connect()
        let live = try webhooks.tables.map { try ProjectionSchema.checksum(schema: webhooks.schema, table: $0, on: connection) }
        try ProjectionRebuilder(conninfo: f.db.projectorURL, batchSize: 2, log: { _, _, _ in }).rebuild([webhooks])
        #expect(try webhooks.tables.map { try ProjectionSchema.checksum(schema: webhooks.schema, table: $0, on: connection) } == live)
    }

    @Test("App Store transactions: started, renewed, upgraded, downgraded, refunded; expired when the subscription ends")
    func appStoreKinds() throws {
        func derive(_ e: AppStoreTransactionRecorded, previous: Plan?) throws -> [WebhookMessageType] {
            try WebhookMessages.derive(type: AppStoreTransactionRecorded.type, stream: "appstore-sub-1",
                                       data: JSONValueEncoder().encode(e), previousPlan: previous).map(\.type)
        }
        let t = Timestamp(iso8601: "2026-11-01T00:00:00Z")!
        var tx = AppStoreTransactionRecorded(orgID: "o", originalTransactionID: "1", transactionID: "2", productID: "p", plan: .plus,
                                             purchaseDate: t, expiresDate: nil, revocationDate: nil, signedDate: t, environment: "Sandbox",
                                             personID: nil, via: "storekit", expiredWhenRecorded: false)
        #expect(try derive(tx, previous: nil) == [.subscriptionStarted])
        #expect(try derive(tx, previous: .plus) == [.subscriptionRenewed])
        #expect(try derive(tx, previous: .free) == [.subscriptionUpgraded])
        #expect(try derive(tx, previous: .premium) == [.subscriptionDowngraded])
        tx.revocationDate = t
        #expect(try derive(tx, previous: .plus) == [.subscriptionRefunded])
        tx.revocationDate = nil
        tx.expiredWhenRecorded = true
        #expect(try derive(tx, previous: .plus) == [])
        for (reason, kind) in [("EXPIRED", WebhookMessageType.subscriptionExpired), ("GRACE_PERIOD_EXPIRED", .subscriptionExpired),
                               ("REFUND", .subscriptionRefunded), ("REVOKE", .subscriptionRefunded)] {
            let ended = AppStoreSubscriptionEnded(orgID: "o", originalTransactionID: "1", reason: reason, signedDate: t, notificationUUID: "n")
            let derived = try WebhookMessages.derive(type: AppStoreSubscriptionEnded.type, stream: "appstore-sub-1",
                                                     data: JSONValueEncoder().encode(ended), previousPlan: nil)
            #expect(derived == [WebhookMessages.Derived(kind, [WebhookSubject(.org, "o")])])
        }
    }
}
