import EventStore
import LedgerDomain
import LedgerServices
import Postgres
import ProjectionEngine
import Projections
import Testing
import TestSupport

/// The operators' reads that decide something beyond a read model's statement: which
/// projects a listing selects, what a show gathers in one snapshot, an account named that
/// does not exist, the order and the duplicates of a search.
@Suite("Directory and search queries", .bounded)
struct DirectoryQueriesTests {
    static let metadata = EventMetadata(actor: Actor(.operator, "tests"), reason: "directory queries")

    /// A migrated database, its projector, and the acts and queries on it.
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

        /// Runs `act`, which must append, then waits until the projections have applied it.
        func perform(_ act: any LedgerAct, sourceLocation: SourceLocation = #_sourceLocation) throws {
            keys += 1
            let (outcome, _) = try ActRunner(store: store, connections: pool, now: clock.read).run(act, metadata: DirectoryQueriesTests.metadata, key: "k\(keys)")
            guard case .appended = outcome else {
                Issue.record("\(act) did not append: \(outcome)", sourceLocation: sourceLocation)
                return
            }
            let head = try store.log.headPosition()
            for projection in [BillingProjection(), OrganizationsProjection(), CatalogProjection()] as [any Projection] {
                try #require(try ProjectionWait.until(projection, reaches: head, connections: pool, timeout: 30), sourceLocation: sourceLocation)
            }
        }

        func answer<Q: LedgerQuery>(_ query: Q) throws -> Q.Answer? {
            try QueryRunner(connections: pool, clock: clock.read).answer(query, as: .operator("tests"))
        }

        func shutdown() {
            projector.stop()
            store.close()
            pool.closeIdle()
            db.drop()
        }
    }

    @Test("project list selects all, one payer's or the self-paying ones; a show gathers the project, its keys and its balance")
    func projects() throws {
        let l = try Ledger()
        defer { l.shutdown() }
        try l.perform(PayerCreateAct(id: "acme", name: "Acme", plan: nil))
        try l.perform(ProjectCreateAct(id: "web", name: "Web", funding: .payer("acme")))
        try l.perform(ProjectCreateAct(id: "solo", name: "Solo", funding: .selfPaying))
        try l.perform(KeyIssueAct(keyID: "web-1", principal: KeyPrincipal(kind: .project, id: "web"),
                                  sha256: String(repeating: "ab", count: 32), prefix: "zs_sk_test_a"))

        #expect(try l.answer(ProjectListQuery())?.map(\.id) == ["solo", "web"])
        #expect(try l.answer(ProjectListQuery(.fundedBy(payer: "acme")))?.map(\.id) == ["web"])
        #expect(try l.answer(ProjectListQuery(.selfPaying))?.map(\.id) == ["solo"])

        let web = try #require(try l.answer(ProjectOverviewQuery("web")))
        #expect(web.project.pool == "payer:acme")
        #expect(web.keys.map(\.keyID) == ["web-1"])
        #expect(web.balance?.current.scope == "share" && web.balance?.current.available == nil, "B3: a funded project's share")
        #expect(try l.answer(ProjectOverviewQuery("nope")) == nil)
        let acme = try #require(try l.answer(PayerOverviewQuery("acme")))
        #expect(acme.payer.projects == ["web"] && acme.keys.isEmpty)
    }

    @Test("corrections of an account that does not exist are no answer, told apart from an account without corrections")
    func correctionsOfAMissingAccount() throws {
        let l = try Ledger()
        defer { l.shutdown() }
        try l.perform(PayerCreateAct(id: "acme", name: "Acme", plan: nil))
        #expect(try l.answer(CorrectionsQuery(account: .payer("acme")))?.isEmpty == true)
        #expect(try l.answer(CorrectionsQuery(account: .payer("nobody"))) == nil)
        #expect(try l.answer(CorrectionsQuery(account: .project("acme"))) == nil)
        #expect(try l.answer(CorrectionsQuery())?.isEmpty == true)
    }

    @Test("the log's part of a search finds an event by position and a stream by its exact name, and nothing else")
    func search() throws {
        let l = try Ledger()
        defer { l.shutdown() }
        try l.perform(PayerCreateAct(id: "acme", name: "Acme", plan: nil))
        try l.perform(ProjectCreateAct(id: "acme", name: "Acme's own", funding: .selfPaying))
        #expect(try l.answer(LogSearchQuery("acme")) == [], "records are the directory's (DirectorySearchQuery)")
        #expect(try l.answer(LogSearchQuery("payer-acme")) == [.stream("payer-acme", lastPosition: 1)])
        #expect(try l.answer(LogSearchQuery("1")) == [.position(1)])
        #expect(try l.answer(LogSearchQuery("999")) == [])
    }
}
