import EventStore
import LedgerDomain
import LedgerFixtures
import LedgerServices
import Testing
import TestSupport

/// The acts the console and `ledger admin` share (LedgerServices/Acts), run through
/// `ActRunner` as both run them: one consistency protocol, one reading of each race.
@Suite("Shared acts: one protocol, one race handling for every front end", .bounded)
struct SharedActsTests {
    static let metadata = EventMetadata(actor: Actor(.operator, "tests"), reason: "shared acts")

    @Test("J3: a correction judged on a projection behind its pool stream stops as projection_behind and appends nothing; caught up, it goes through expecting the version it judged")
    func correctionWaitsForItsStream() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        let credit = try f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1000", "--description", "d"])
        let position = try #require(credit["events"]?.arrayValue?.first?["position"]?.int64Value)
        try f.settle()
        let runner = ActRunner(store: f.store, connections: f.pool, now: f.clock.read)
        let act = CorrectAct(entry: try #require(JournalEntryID("je_\(position)_0")), amount: Millicredits(-100), reason: "r")
        f.stopProjector()
        try f.append(CreditPosted(pool: .payer("acme"), source: .grant, amount: Millicredits(1), description: "unprojected"),
                     stream: "payer-acme")
        let head = try f.head()
        let (behind, _) = try runner.run(act, metadata: Self.metadata, key: "shared-correct")
        guard case .projectionBehind(let lag) = behind else { Issue.record("expected projection_behind, got \(behind)"); return }
        #expect(lag.target == head && lag.projection == "billing")
        #expect(try f.head() == head, "nothing appended")
        f.startProjector()
        try f.settle()
        let (outcome, request) = try runner.run(act, metadata: Self.metadata, key: "shared-correct")
        guard case .appended = outcome else { Issue.record("expected appended, got \(outcome)"); return }
        #expect(request?.expectedVersions["payer-acme"] == .exactly(try f.store.log.streamVersion("payer-acme") - 1))
    }

    @Test("a hold settled between the read and the append: the lost race is already_settled and says by what, on every front end")
    func holdSettledMeanwhile() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.project("web")
        _ = try f.adminJSON(["credit", "--pool", "project:web", "--source", "grant", "--amount", "1000", "--description", "d"])
        _ = try f.adminJSON(["hold", "place", "--id", "h1", "--project", "web", "--amount", "100", "--description", "job"])
        let runner = ActRunner(store: f.store, connections: f.pool, now: f.clock.read)
        let act = HoldSettleAct(id: "h1", .release)
        guard case .decided(let decision) = try runner.prepare(act) else { Issue.record("the release was not decided"); return }
        // Another operator captures it meanwhile.
        _ = try f.adminJSON(["hold", "capture", "--id", "h1"])
        let head = try f.head()
        let result = Result { () throws(AppendError) -> AppendResult in
            try f.store.append(runner.request(decision, metadata: Self.metadata, key: "shared-release"))
        }
        guard case .refused(let refusal) = runner.outcome(result, of: act, decision: decision) else {
            Issue.record("expected a refusal"); return
        }
        #expect(refusal.code == .alreadySettled && refusal.message.contains("captured"), "\(refusal)")
        #expect(try f.head() == head)
    }

    @Test("a key is revoked once: the second revocation and a key that never existed are told apart by the stream's version, with no pre-check")
    func keyRevokedOnce() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        let issued = try f.adminJSON(["key", "issue", "--payer", "acme"])
        let keyID = try #require(issued["key_id"]?.stringValue)
        let runner = ActRunner(store: f.store, connections: f.pool, now: f.clock.read)
        guard case .appended = try runner.run(KeyRevokeAct(keyID: keyID), metadata: Self.metadata, key: "k1").0 else {
            Issue.record("the first revocation did not append"); return
        }
        guard case .refused(let twice) = try runner.run(KeyRevokeAct(keyID: keyID), metadata: Self.metadata, key: "k2").0 else {
            Issue.record("the second revocation was not refused"); return
        }
        #expect(twice.code == .alreadyRevoked)
        guard case .refused(let none) = try runner.run(KeyRevokeAct(keyID: "key_nope"), metadata: Self.metadata, key: "k3").0 else {
            Issue.record("a missing key was not refused"); return
        }
        #expect(none.code == .notFound)
        guard case .refused(let bad) = try runner.run(KeyRevokeAct(keyID: "KEY NOPE"), metadata: Self.metadata, key: "k4").0 else {
            Issue.record("a malformed key id was not refused"); return
        }
        #expect(bad.code == .outOfRange, "the decider's id rule, the same as when the key was issued")
    }
}
