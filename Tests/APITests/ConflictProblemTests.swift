@testable import API
import HTTP
import LedgerServices
import Testing
import TestSupport

@Suite("A conflict is answered as what it is", .bounded)
struct ConflictProblemTests {
    @Test("a key reused is the client's 409, a stream moved a 409 to retry, a race unsettled after its attempts a 503 with Retry-After")
    func kinds() throws {
        let reused = try #require(ActOutcome.conflict(.init(.keyReused, detail: "other content")).problem)
        #expect(reused.status == 409 && reused.code == "idempotency_conflict")
        let moved = try #require(ActOutcome.conflict(.init(.streamMoved("hold-h"), detail: "moved")).problem)
        #expect(moved.status == 409 && moved.code == "conflict")
        let race = try #require(ActOutcome.conflict(.init(.decideAgain, detail: "granted meanwhile")).problem)
        #expect(race.status == 503 && race.code == "contention" && race.retryAfter == 1)
        let unknown = try #require(ActOutcome.outcomeUnknown("lost").problem)
        #expect(unknown.status == 503 && unknown.code == "append_outcome_unknown" && unknown.retryAfter == 1)
    }
}
