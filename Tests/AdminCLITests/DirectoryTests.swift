import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import Testing
import TestSupport

/// `ledger admin … list|show`: reading what the operator commands created, through the
/// projections' read models, without appending anything.
@Suite("ledger admin list and show", .bounded)
struct DirectoryTests {
    @Test("payers and projects: plans, who funds whom now, funding history, balances (B1-B3) and keys by prefix")
    func payersAndProjects() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme", allowance: 1_000)
        try f.payer("zeta", plan: "free")
        try f.project("web", payer: "acme")
        try f.project("solo")
        _ = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "5000", "--description", "launch"])
        let issued = try f.adminJSON(["key", "issue", "--payer", "acme", "--key-id", "acme-1"])
        let secret = try #require(issued["secret"]?.stringValue)
        let head = try f.head()

        let payers = try f.read(["payer", "list"])
        #expect(payers["payers"]?.arrayValue?.map { $0["id"] } == ["acme", "zeta"])
        #expect(payers["payers"]?[0]?["projects"] == ["web"])
        #expect(payers["payers"]?[0]?["allowance_storage_bytes"] == .integer(1_000))
        #expect(payers["payers"]?[1]?["plan"] == "free")

        let acme = try f.read(["payer", "show", "--id", "acme"])
        #expect(acme["balance"]?["posted"] == "5000")
        #expect(acme["balance"]?["available"] == "5000")
        #expect(acme["keys"]?.arrayValue?.map { $0["key_id"] } == ["acme-1"])
        #expect(acme["keys"]?[0]?["prefix"]?.stringValue == String(secret.prefix(12)))
        let text = f.admin(["payer", "show", "--id", "acme"], reason: nil)
        #expect(text.status == 0)
        #expect(text.output.contains("balance (pool): posted 5 credits (5000 millicredits), held 0 credits (0 millicredits), available 5 credits (5000 millicredits)"),
                "\(text.output)")
        #expect(text.output.contains("storage allowance 1,000 bytes"))
        #expect(!text.output.contains(secret), "a key is never printed again")

        #expect(try f.read(["project", "list"])["projects"]?.arrayValue?.map { $0["id"] } == ["solo", "web"])
        #expect(try f.read(["project", "list", "--payer", "acme"])["projects"]?.arrayValue?.map { $0["id"] } == ["web"])
        #expect(try f.read(["project", "list", "--self-paying"])["projects"]?.arrayValue?.map { $0["id"] } == ["solo"])

        // A change of funding that takes effect later: the project is still the payer's now.
        _ = try f.adminJSON(["project", "fund", "--id", "web", "--self-paying", "--effective-at", "2099-01-01T00:00:00Z"])
        let web = try f.read(["project", "show", "--id", "web"])
        #expect(web["project"]?["pool"] == "payer:acme")
        #expect(web["project"]?["funding"]?.arrayValue?.map { $0["pool"] } == ["payer:acme", "project:web"])
        #expect(web["balance"]?["scope"] == "share")
        f.clock.set("2099-01-01T00:00:00Z")
        #expect(try f.read(["project", "show", "--id", "web"])["project"]?["pool"] == "project:web")

        #expect(f.admin(["payer", "show", "--id", "ghost"], reason: nil).errors.contains("payer ghost does not exist"))
        #expect(f.admin(["project", "show", "--id", "ghost"], reason: nil).status == 1)
        #expect(f.admin(["project", "list", "--payer", "acme", "--self-paying"], reason: nil).status == 2)
        #expect(try f.head() == head + 1, "only the funding change appended")
    }

    @Test("B, U6: credit left on a project's own pool after a payer funds it is on project show, in credits with the millicredits beside")
    func creditLeftOnTheOwnPool() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("solo")
        _ = try f.adminJSON(["credit", "--pool", "project:solo", "--source", "grant", "--amount", "98500", "--description", "welcome"])
        _ = try f.adminJSON(["project", "fund", "--id", "solo", "--payer", "acme"])
        let json = try f.read(["project", "show", "--id", "solo"])
        #expect(json["balance"]?["scope"] == "share" && json["balance"]?["other_pools"]?[0]?["available"] == "98500")
        let text = f.admin(["project", "show", "--id", "solo"], reason: nil)
        #expect(text.output.contains("balance (share): posted 0 credits (0 millicredits), held 0 credits (0 millicredits) at position"), "\(text.output)")
        #expect(text.output.contains("  earlier on the pool of self solo (pool): posted 98.5 credits (98500 millicredits), held 0 credits (0 millicredits), available 98.5 credits (98500 millicredits)"),
                "\(text.output)")
    }

    @Test("keys: every principal's or one's, by id and prefix, revoked ones marked")
    func keys() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("solo")
        _ = try f.adminJSON(["key", "issue", "--project", "solo", "--key-id", "k1"])
        _ = try f.adminJSON(["key", "issue", "--service", "metering", "--key-id", "k2"])
        _ = try f.adminJSON(["key", "revoke", "--key-id", "k1"])
        let all = try f.read(["key", "list"])["keys"]?.arrayValue ?? []
        #expect(all.map { $0["key_id"] } == ["k1", "k2"])
        #expect(all.map { $0["principal"] } == ["project:solo", "service:metering"])
        #expect(all.map { $0["revoked"] } == [true, false])
        #expect(all.allSatisfy { $0["prefix"]?.stringValue?.count == 12 })
        #expect(try f.read(["key", "list", "--service", "metering"])["keys"]?.arrayValue?.count == 1)
        #expect(f.admin(["key", "list", "--project", "solo", "--payer", "x"], reason: nil).status == 2)
    }

    @Test("organizations: the plan now and where it comes from (O), admins, education")
    func organizations() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        _ = try f.adminJSON(["org", "create", "--id", "school", "--name", "A School"])
        _ = try f.adminJSON(["org", "admin", "add", "--org", "school", "--person", "p1"])
        let list = try f.read(["org", "list"])["organizations"]?.arrayValue ?? []
        #expect(list.map { $0["id"] } == ["school"])
        #expect(list.first?["admins"] == ["p1"])
        let show = try f.read(["org", "show", "--id", "school"])
        #expect(show["plan"] == "free")
        #expect(show["plan_source"] == .null)
        #expect(show["subscriptions"] == [] && show["pending"] == .null)
        #expect(f.admin(["org", "show", "--id", "nobody"], reason: nil).errors.contains("organization nobody does not exist"))
        // Why: the changes with who made them and why, and the next change.
        let why = f.admin(["org", "show", "--id", "school"], reason: nil).output
        #expect(why.contains("next change: none") && why.contains("org.admin_designated") && why.contains("(checked by the tests)"), "\(why)")

        // Its App Store subscription, as docs/appstore.md ("Lifecycle") shows it: shared through
        // Family Sharing, bought with an offer code, a price increase pending, then refunded.
        let bought = Timestamp(microseconds: f.clock.now.microseconds - 3_600_000_000)!
        _ = try f.append(AppStoreTransactionRecorded(orgID: "school", originalTransactionID: "7001", transactionID: "8001",
                                                     productID: "ai.screenrig.plus.monthly", plan: .plus, purchaseDate: bought,
                                                     expiresDate: Timestamp(microseconds: bought.microseconds + 30 * 86_400_000_000),
                                                     revocationDate: nil, signedDate: bought, environment: "Sandbox", personID: nil,
                                                     via: "OFFER_REDEEMED", expiredWhenRecorded: false, inAppOwnershipType: "FAMILY_SHARED",
                                                     offerType: 3, offerIdentifier: "SPRING", offerDiscountType: "FREE_TRIAL"),
                         stream: "appstore-sub-7001")
        _ = try f.append(AppStorePriceIncreaseReported(orgID: "school", originalTransactionID: "7001", status: .pending, renewalPrice: 12_990,
                                                       currency: "USD", signedDate: bought, notificationUUID: "n1"),
                         stream: "appstore-sub-7001")
        _ = try f.append(AppStoreSubscriptionEnded(orgID: "school", originalTransactionID: "7001", reason: "REFUND", signedDate: bought,
                                                   notificationUUID: "n2"), stream: "appstore-sub-7001")
        let subscription = try f.read(["org", "show", "--id", "school"])["subscriptions"]?[0]
        #expect(subscription?["status"] == "refunded" && subscription?["ownership"] == "family_shared", "\(subscription ?? .null)")
        #expect(subscription?["offer"] == ["type": "offer_code", "code": 3, "identifier": "SPRING", "discount_type": "FREE_TRIAL"])
        #expect(subscription?["price_increase"]?["status"] == "pending" && subscription?["renewal_extension"] == .null)
        let text = f.admin(["org", "show", "--id", "school"], reason: nil).output
        #expect(text.contains("refunded; held through Family Sharing; offer: offer_code (SPRING, FREE_TRIAL); price increase pending"), "\(text)")

        // Apple's refund request on it, and the ledger's answer (docs/appstore.md, "Refund requests").
        let request = AppStoreConsumptionRequested(orgID: "school", originalTransactionID: "7001", transactionID: "8001",
                                                   productID: "ai.screenrig.plus.monthly", bundleID: "ai.screenrig.app",
                                                   notificationUUID: "n3", signedDate: bought, environment: "Sandbox")
        _ = try f.append(request, stream: "appstore-sub-7001")
        var refund = try f.read(["org", "show", "--id", "school"])["subscriptions"]?[0]?["refund_requests"]?[0]
        #expect(refund?["outcome"] == .null && refund?["respond_by"]?.stringValue == request.respondBy.iso8601, "\(refund ?? .null)")
        _ = try f.append(AppStoreConsumptionAnswered(notificationUUID: "n3", orgID: "school", originalTransactionID: "7001",
                                                     transactionID: "8001", outcome: .declined, reason: ConsumptionReason.noConsent,
                                                     detail: "no consent"), stream: "appstore-sub-7001")
        refund = try f.read(["org", "show", "--id", "school"])["subscriptions"]?[0]?["refund_requests"]?[0]
        #expect(refund?["outcome"] == "declined" && refund?["reason"] == "no_consent" && refund?["sent"] == .null, "\(refund ?? .null)")
        #expect(f.admin(["org", "show", "--id", "school"], reason: nil).output.contains("refund request n3 for transaction 8001"))
    }

    @Test("apps, products and campaigns as the catalog serves them, keys by prefix")
    func catalog() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.app("shop")
        try f.subscription("shop.pro", app: "shop")
        try f.migration("save", app: "shop", product: "shop.pro", eligible: "shop.pro")
        let key = try f.adminJSON(["app", "key", "issue", "--app", "shop", "--mode", "test"])
        let apps = try f.read(["app", "list"])["apps"]?.arrayValue ?? []
        #expect(apps.map { $0["id"] } == ["shop"])
        #expect(apps.first?["bundle_id"] == "com.example.shop")
        let show = try f.read(["app", "show", "--id", "shop"])
        #expect(show["products"]?.arrayValue?.map { $0["id"] } == ["shop.pro"])
        #expect(show["campaigns"]?["migration"]?["campaign_id"] == "save")
        #expect(show["campaigns"]?["upgrade"] == .null)
        let prefix = try #require(show["app"]?["keys"]?[0]?["prefix"]?.stringValue)
        let secret = try #require(key["secret"]?.stringValue ?? key["key"]?.stringValue)
        #expect(secret.hasPrefix(prefix) && prefix.count < secret.count)
        let products = f.admin(["product", "list", "--app", "shop"], reason: nil)
        #expect(products.output.contains("shop.pro") && products.output.contains("9.99 USD"))
        #expect(f.admin(["campaign", "list", "--app", "shop"], reason: nil).output.contains("migration campaign save"))
        #expect(f.admin(["product", "list", "--app", "nope"], reason: nil).errors.contains("app nope does not exist"))
    }
}
