import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// Console operators' rules (docs/console.md), against the decider alone.
@Suite("Console operators: the decider", .bounded)
struct OperatorDeciderTests {
    static func fold(_ decisions: [Decision]) throws -> OperatorDecider.State? {
        try OperatorDecider.State.fold(decisions.flatMap(\.events).map { (type: $0.type, data: $0.data) })
    }

    @Test("add, reset, disable: each credential supersedes the one before; a disabled operator stays disabled")
    func lifecycle() throws {
        let added = try OperatorDecider.add(name: "alice", role: .auditor, credential: "c1", existing: nil)
        #expect(added.expectedVersions == ["operator-alice": .noStream])
        var state = try #require(try Self.fold([added]))
        #expect(state.role == .auditor && state.credential == "c1" && !state.disabled && state.streamVersion == 1)
        let code = { (body: () throws -> Decision) -> String? in
            do { _ = try body(); return nil } catch let refusal as Refusal { return refusal.code.rawValue } catch { return "\(error)" }
        }
        #expect(code { try OperatorDecider.add(name: "alice", role: .viewer, credential: "c9", existing: state) } == "already_exists")
        let reset = try OperatorDecider.resetPassword(state, name: "alice", credential: "c2")
        #expect(reset.expectedVersions == ["operator-alice": .exactly(1)])
        state = try #require(try Self.fold([added, reset]))
        #expect(state.credential == "c2" && state.streamVersion == 2)
        let disabled = try OperatorDecider.disable(state, name: "alice")
        state = try #require(try Self.fold([added, reset, disabled]))
        #expect(state.disabled)
        #expect(code { try OperatorDecider.disable(state, name: "alice") } == "operator_disabled")
        #expect(code { try OperatorDecider.resetPassword(state, name: "alice", credential: "c3") } == "operator_disabled")
        #expect(code { try OperatorDecider.disable(nil, name: "ghost") } == "not_found")
    }

    @Test("names: a-z 0-9 . _ - from a letter, at most 64; anything else is refused before it reaches a stream name")
    func names() {
        for good in ["a", "alice", "demo-auditor", "bob.smith_2", String(repeating: "a", count: 64)] {
            #expect(OperatorDecider.isValidName(good), "\(good)")
        }
        for bad in ["", "Alice", "1abc", "-a", "a b", "a/b", "é", String(repeating: "a", count: 65), "a\n"] {
            #expect(!OperatorDecider.isValidName(bad), "\(bad)")
        }
    }

    @Test("roles include the ones below them")
    func roles() {
        #expect(OperatorRole.operator.includes(.auditor) && OperatorRole.auditor.includes(.viewer) && OperatorRole.viewer.includes(.viewer))
        #expect(!OperatorRole.viewer.includes(.auditor) && !OperatorRole.auditor.includes(.operator))
    }
}
