import LedgerDomain
import Testing
import TestSupport

/// The record of a rebuild swapped in (`ledger replay`, the console), against the decider.
@Suite("Rebuilds swapped in: the decider", .bounded)
struct ProjectionRebuiltTests {
    @Test("one projection.rebuilt per projection, each on its own stream, under the swap's key; empty or negative records refused")
    func rules() throws {
        let billing = ProjectionRebuilt(projection: "billing", comparedAt: 40,
                                        tables: [.init(table: "balances", added: 0, removed: 0, changed: 2)], accountsChanged: 2)
        let iap = ProjectionRebuilt(projection: "iap", comparedAt: 40, tables: [], accountsChanged: 0)
        let decision = try ProjectionDecider.rebuilt([billing, iap], key: "replay-1")
        #expect(decision.events.map(\.stream) == ["projection-billing", "projection-iap"])
        #expect(decision.events.allSatisfy { $0.type == ProjectionRebuilt.type })
        #expect(decision.idempotencyKey == "replay-1")
        let code = { (records: [ProjectionRebuilt], key: String) -> String? in
            do { _ = try ProjectionDecider.rebuilt(records, key: key); return nil } catch let refusal as Refusal { return refusal.code.rawValue } catch { return "\(error)" }
        }
        #expect(code([], "k") == "out_of_range")
        #expect(code([billing], "") == "out_of_range")
        #expect(code([ProjectionRebuilt(projection: "billing", comparedAt: 1, tables: [.init(table: "t", added: -1, removed: 0, changed: 0)],
                                        accountsChanged: 0)], "k") == "out_of_range")
        #expect(code([ProjectionRebuilt(projection: "", comparedAt: 1, tables: [], accountsChanged: 0)], "k") == "out_of_range")
    }
}
