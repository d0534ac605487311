import EventStore
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres
import ProjectionEngine
import Projections
import Testing
import TestSupport

/// The console's one search box and its lists (docs/console.md, "Search and lists"), on
/// real PostgreSQL: what each kind of text finds, the ranking, the escaping of `LIKE`'s
/// wildcards, and keyset pages that hold every record once in both orders.
@Suite("Search and lists of the directory", .bounded)
struct DirectorySearchTests {
    static let metadata = EventMetadata(actor: Actor(.operator, "tests"), reason: "directory search")
    static let projections: [any Projection] = [BillingProjection(), OrganizationsProjection(), CatalogProjection(),
                                                 WebCheckoutProjection(), LogIndexProjection()]

    /// A migrated database, its projector, acts and raw appends, and the queries.
    final class Ledger {
        let db: TestDatabase
        let pool: PostgresPool
        let store: EventStore
        let clock = ManualClock("2026-11-15T12:00:00Z")
        let projector: ProjectorThread
        var keys = 0

        init() throws {
            db = try TestDatabase.create()
            pool = PostgresPool(conninfo: db.writerURL, maximumConnections: 4)
            store = EventStore(conninfo: db.writerURL, connections: pool)
            projector = ProjectorThread(url: db.projectorURL)
        }

        /// Runs `act`, which must append; returns the position of its first event.
        @discardableResult
        func perform(_ act: any LedgerAct, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
            keys += 1
            let before = try store.log.headPosition()
            let (outcome, _) = try ActRunner(store: store, connections: pool, now: clock.read).run(act, metadata: DirectorySearchTests.metadata, key: "k\(keys)")
            guard case .appended = outcome else {
                Issue.record("\(act) did not append: \(outcome)", sourceLocation: sourceLocation)
                return 0
            }
            // The next act decides on the projections: they must hold this one.
            try settle(sourceLocation: sourceLocation)
            return before + 1
        }

        /// Appends an event as its writer would; returns its position.
        @discardableResult
        func append<E: DomainEvent>(_ event: E, stream: String) throws -> Int64 {
            try store.append(AppendRequest(events: [EventToAppend(stream: stream, type: E.type, data: try JSONValueEncoder().encode(event),
                                                                  metadata: DirectorySearchTests.metadata, occurredAt: nil, idempotencyKey: nil)]))
            return try store.log.headPosition()
        }

        /// Waits until every projection the directory reads has applied the whole log.
        func settle(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let head = try store.log.headPosition()
            for projection in DirectorySearchTests.projections {
                try #require(try ProjectionWait.until(projection, reaches: head, connections: pool, timeout: 30), sourceLocation: sourceLocation)
            }
        }

        func answer<Q: LedgerQuery>(_ query: Q) throws -> Q.Answer? {
            try QueryRunner(connections: pool, clock: clock.read).answer(query, as: .operator("tests"))
        }

        func search(_ text: String, kind: SearchKind? = nil, limit: Int = 50) throws -> DirectorySearch {
            try #require(try answer(DirectorySearchQuery(text, kind: kind, limit: limit)))
        }

        /// Every page of a list, each record's key (`app/user` for users), in order.
        func all(_ kind: DirectoryKind, sort: DirectoryListQuery.Sort, descending: Bool, filter: String? = nil, limit: Int) throws -> [String] {
            var out: [String] = [], cursor: String?
            for _ in 0..<100 {
                let page = try #require(try answer(try DirectoryListQuery(kind, sort: sort, descending: descending, filter: filter,
                                                                          cursor: cursor, limit: limit)))
                #expect(page.items.count <= limit)
                out += page.items.map { ($0.app.map { $0 + "/" } ?? "") + $0.id }
                guard let next = page.next else { return out }
                cursor = next.description
            }
            Issue.record("more than 100 pages")
            return out
        }

        func shutdown() {
            projector.stop()
            store.close()
            pool.closeIdle()
            db.drop()
        }
    }

    /// Payers, projects, an organization with an App Store subscription, an app with
    /// purchases and web checkout facts, a credit (a journal entry).
    static func seeded() throws -> (Ledger, entry: String) {
        let l = try Ledger()
        try l.perform(PayerCreateAct(id: "acme", name: "Acme Corp", plan: nil))
        try l.perform(PayerCreateAct(id: "bigacme", name: "Big", plan: nil))
        try l.perform(PayerCreateAct(id: "pct", name: "100% Growth_Co", plan: nil))
        try l.perform(PayerCreateAct(id: "pctx", name: "1000 Growth Co", plan: nil))
        // acme-web moves last: among the id prefixes of `acme`, it comes first.
        try l.perform(ProjectCreateAct(id: "acme-mobile", name: "Mobile", funding: .payer("acme")))
        try l.perform(ProjectCreateAct(id: "acme-web", name: "Web", funding: .payer("acme")))
        try l.perform(ProjectCreateAct(id: "solo", name: "Solo Studio", funding: .selfPaying))
        try l.perform(ProjectCreateAct(id: "ops", name: "Ops for ACME", funding: .selfPaying))
        let credit = try l.perform(CreditAct(pool: .payer("acme"), source: .grant, amount: Millicredits(100), description: "goodwill"))
        try l.perform(OrgCreateAct(id: "school", name: "A School"))
        let bought = Timestamp(iso8601: "2026-11-01T00:00:00Z")!
        try l.append(AppStoreTransactionRecorded(orgID: "school", originalTransactionID: "2000000123", transactionID: "2000000124",
                                                 productID: "ai.screenrig.plus.monthly", plan: .plus, purchaseDate: bought,
                                                 expiresDate: Timestamp(microseconds: bought.microseconds + 30 * 86_400_000_000),
                                                 revocationDate: nil, signedDate: bought, environment: "Sandbox", personID: nil,
                                                 via: "SUBSCRIBED", expiredWhenRecorded: false),
                     stream: "appstore-sub-2000000123")
        try l.perform(AppCreateAct(id: "demo", name: "Demo App", bundleID: "com.example.demo"))
        for (user, id, source) in [("user.7", "web_1", PurchaseSource.web), ("user.8", "3000000555", .storekit), ("User.Mixed", "web_2", .web)] {
            try l.append(PurchaseRecorded(appID: "demo", userID: user, source: source, purchaseID: id, originalID: id, productID: "pro.monthly",
                                          purchasedAt: bought, expiresAt: nil, trial: false, environment: nil),
                         stream: CatalogDecider.purchasesStream("demo"))
        }
        for (user, event) in [("user.9", "evt_9"), ("user.7", "evt_7")] {
            try l.append(StripeEventRecorded(appID: "demo", eventID: event, eventType: "customer.subscription.updated", created: bought,
                                             livemode: false, account: nil, userID: user,
                                             fact: .subscription(StripeFact.Subscription(
                                                subscriptionID: "sub_" + event, customerID: "cus_" + event, status: "active", productID: "pro.monthly",
                                                createdAt: bought, periodEnd: bought, trialStart: nil, trialEnd: nil, cancelAtPeriodEnd: false,
                                                canceledAt: nil, endedAt: nil, deleted: false))),
                         stream: "app-demo-stripe")
        }
        try l.settle()
        return (l, "je_\(credit)_0")
    }

    @Test("ids, id prefixes and names of every kind are found, any case; kind:id looks among one kind")
    func finds() throws {
        let (l, entry) = try Self.seeded()
        defer { l.shutdown() }
        func targets(_ text: String, kind: SearchKind? = nil) throws -> [DirectoryHit.Target] { try l.search(text, kind: kind).hits.map(\.target) }

        #expect(try targets("acme-") == [.project("acme-web"), .project("acme-mobile")])
        #expect(try targets("Acme").prefix(1) == [.payer("acme")])
        #expect(try targets("acme corp") == [.payer("acme")])
        #expect(try targets("ACME CORP") == [.payer("acme")])
        #expect(try targets("Solo") == [.project("solo")])
        #expect(try targets("studio") == [.project("solo")], "a word of a name")
        #expect(try targets("payer:acme") == [.payer("acme"), .payer("bigacme")], "payers only")
        #expect(try targets("project:solo") == [.project("solo")])
        #expect(try targets("org:SCHOOL") == [.org("school")])
        #expect(try targets("app:demo app") == [.app("demo")])
        #expect(try targets("demo", kind: .app) == [.app("demo")])
        let payer = try #require(try l.search("acme").hits.first)
        #expect(payer.name == "Acme Corp" && payer.rank == .exactID && payer.lastPosition != nil && payer.lastOccurredAt != nil)

        // Journal entries: the whole id and its start.
        #expect(try targets(entry) == [.entry(id: entry, account: "payer:acme")])
        #expect(try targets(entry.uppercased()) == [.entry(id: entry, account: "payer:acme")])
        let prefix = String(entry.dropLast(2))
        #expect(try targets(prefix).contains(.entry(id: entry, account: "payer:acme")))
        #expect(try l.search(prefix).hits.first { $0.kind == .entry }?.rank == .idPrefix)
        // App Store transactions: an organization's subscription, a user's StoreKit purchase.
        #expect(try targets("2000000123") == [.subscription(originalTransactionID: "2000000123", org: "school")])
        #expect(try targets("20000001") == [.subscription(originalTransactionID: "2000000123", org: "school")])
        #expect(try targets("transaction:3000000") == [.purchase(transactionID: "3000000555", originalTransactionID: "3000000555",
                                                                  app: "demo", user: "user.8")])
        // Users: by id and its start, from purchases and web facts alike, as typed or in one case.
        let users = try targets("user.")
        #expect(Set(users) == [.user(app: "demo", user: "user.7"), .user(app: "demo", user: "user.8"), .user(app: "demo", user: "user.9")])
        #expect(try targets("USER.9") == [.user(app: "demo", user: "user.9")], "a web checkout user, typed in upper case")
        #expect(try targets("User.M") == [.user(app: "demo", user: "User.Mixed")], "a mixed-case id, typed in its own case")
        let seven = try #require(try l.search("user.7").hits.first)
        #expect(seven.rank == .exactID)
        let latestOfSeven = try l.store.log.headPosition()
        #expect(seven.lastPosition == latestOfSeven, "a user's latest fact, whichever projection holds it")
        // The log: positions, event ids, stream names.
        #expect(try targets("1").first == .position(1))
        let first = try #require(try l.store.log.event(at: 1))
        #expect(try targets(first.eventID.uuidString) == [.event(id: first.eventID.uuidString.lowercased(), position: 1)])
        #expect(try targets("payer-acme") == [.stream("payer-acme")])
        #expect(try l.search("nothing-like-it").hits.isEmpty)
        #expect(try l.search("   ").hits.isEmpty)
    }

    @Test("ranking: the exact id, then id prefixes, then names and words that start with it, then anything holding it; the latest activity first among equals")
    func ranking() throws {
        let (l, _) = try Self.seeded()
        defer { l.shutdown() }
        let hits = try l.search("acme").hits
        #expect(hits.map(\.target) == [.payer("acme"), .project("acme-web"), .project("acme-mobile"), .project("ops"), .payer("bigacme")])
        #expect(hits.map(\.rank) == [.exactID, .idPrefix, .idPrefix, .namePrefix, .substring])
        // Cut at the limit: what more matched is counted, for the list page's "more…".
        let cut = try l.search("acme", limit: 2)
        #expect(cut.hits.map(\.target) == [.payer("acme"), .project("acme-web")])
        #expect(cut.more[.payer] == DirectorySearch.Count(count: 2, exact: true))
        #expect(cut.more[.project] == DirectorySearch.Count(count: 3, exact: true))
        // Equals past the limit: the latest activity wins, not the first id.
        for id in ["twin-a", "twin-b", "twin-c"] { try l.perform(PayerCreateAct(id: id, name: "Twin", plan: nil)) }
        try l.perform(CreditAct(pool: .payer("twin-b"), source: .grant, amount: Millicredits(1), description: "moves twin-b last"))
        try l.settle()
        #expect(try l.search("twin", limit: 1).hits.map(\.target) == [.payer("twin-b")])
        #expect(try l.search("twin").hits.map(\.target) == [.payer("twin-b"), .payer("twin-c"), .payer("twin-a")])
    }

    @Test("LIKE's wildcards are searched for as themselves: % and _ and \\")
    func escaping() throws {
        let (l, _) = try Self.seeded()
        defer { l.shutdown() }
        #expect(try l.search("100%").hits.map(\.target) == [.payer("pct")], "not 1000 Growth Co")
        #expect(try l.search("h_c").hits.map(\.target) == [.payer("pct")], "not growth co")
        #expect(try l.search("%").hits.map(\.target) == [.payer("pct")])
        #expect(try l.search("\\").hits.isEmpty)
        #expect(try l.search("h\\_c").hits.isEmpty)
        #expect(TextMatch.escapeLike(#"a%b_c\d"#) == #"a\%b\_c\\d"#)
    }

    @Test("list pages hold every record once, in both orders, either way, names tied or not, filtered or not")
    func lists() throws {
        let (l, _) = try Self.seeded()
        defer { l.shutdown() }
        for i in 1...5 { try l.perform(PayerCreateAct(id: "tie\(i)", name: "Same", plan: nil)) }
        try l.perform(CreditAct(pool: .payer("tie2"), source: .grant, amount: Millicredits(1), description: "moves tie2 last"))
        try l.settle()
        let payers = ["acme", "bigacme", "pct", "pctx", "tie1", "tie2", "tie3", "tie4", "tie5"]
        for limit in [1, 2, 4, 50] {
            for sort in DirectoryListQuery.Sort.allCases {
                for descending in [false, true] {
                    let ids = try l.all(.payer, sort: sort, descending: descending, limit: limit)
                    #expect(ids.sorted() == payers, "\(sort) \(descending) by \(limit): \(ids)")
                }
            }
        }
        #expect(try l.all(.payer, sort: .name, descending: false, limit: 2)
                == ["pct", "pctx", "acme", "bigacme", "tie1", "tie2", "tie3", "tie4", "tie5"], "by lower(name), then id")
        #expect(try l.all(.payer, sort: .name, descending: true, limit: 3)
                == ["tie5", "tie4", "tie3", "tie2", "tie1", "bigacme", "acme", "pctx", "pct"])
        let byActivity = try l.all(.payer, sort: .activity, descending: true, limit: 2)
        #expect(byActivity.first == "tie2", "the latest credit first")
        #expect(try l.all(.payer, sort: .activity, descending: false, limit: 2) == byActivity.reversed())
        // Filtered: the same matching as the search, in both orders.
        for sort in DirectoryListQuery.Sort.allCases {
            #expect(try l.all(.payer, sort: sort, descending: false, filter: "SAME", limit: 2).sorted() == ["tie1", "tie2", "tie3", "tie4", "tie5"])
            #expect(try l.all(.project, sort: sort, descending: true, filter: "acme", limit: 1).sorted() == ["acme-mobile", "acme-web", "ops"])
        }
        #expect(try l.all(.org, sort: .name, descending: false, limit: 5) == ["school"])
        #expect(try l.all(.app, sort: .activity, descending: true, limit: 5) == ["demo"], "app-demo-purchases and -stripe are not apps")
        let page = try #require(try l.answer(try DirectoryListQuery(.payer, limit: 50))?.items.first { $0.id == "acme" })
        #expect(page.name == "Acme Corp" && page.lastPosition != nil && page.lastOccurredAt != nil)
        // Users: purchases and web facts merged, user.7 (in both) once.
        let users = ["demo/User.Mixed", "demo/user.7", "demo/user.8", "demo/user.9"]
        for limit in [1, 2, 3, 50] {
            for sort in DirectoryListQuery.Sort.allCases {
                for descending in [false, true] {
                    let found = try l.all(.user, sort: sort, descending: descending, limit: limit)
                    #expect(found.sorted() == users, "users \(sort) \(descending) by \(limit): \(found)")
                    let filtered = try l.all(.user, sort: sort, descending: descending, filter: "USER.", limit: limit)
                    #expect(filtered.sorted() == ["demo/user.7", "demo/user.8", "demo/user.9"], "filtered \(sort) \(descending) by \(limit): \(filtered)")
                }
            }
        }
        #expect(try l.all(.user, sort: .activity, descending: true, limit: 1) == ["demo/user.7", "demo/user.9", "demo/User.Mixed", "demo/user.8"])
    }

    @Test("a cursor of another list, or damaged, is refused; so is a limit out of range")
    func cursors() throws {
        let (l, _) = try Self.seeded()
        defer { l.shutdown() }
        let page = try #require(try l.answer(try DirectoryListQuery(.payer, limit: 1)))
        let cursor = try #require(page.next).description
        #expect(throws: DirectoryInputError.self) { try DirectoryListQuery(.project, cursor: cursor) }
        #expect(throws: DirectoryInputError.self) { try DirectoryListQuery(.payer, sort: .activity, cursor: cursor) }
        #expect(throws: DirectoryInputError.self) { try DirectoryListQuery(.payer, descending: true, cursor: cursor) }
        #expect(throws: DirectoryInputError.self) { try DirectoryListQuery(.payer, cursor: "garbage!") }
        #expect(throws: DirectoryInputError.self) { try DirectoryListQuery(.payer, cursor: String(cursor.dropLast(3))) }
        #expect(throws: DirectoryInputError.self) { try DirectoryListQuery(.payer, limit: 0) }
        #expect(try DirectoryListQuery(.payer, cursor: cursor).cursor?.key == page.next?.key)
    }
}
