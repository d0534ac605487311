import LedgerServices
import Testing
import TestSupport

@Suite("Races an act reads as decide again", .bounded)
struct RacePolicyTests {
    @Test("a decide-again race is decided again until the attempts are spent, and no other outcome is")
    func attempts() {
        let race = ActOutcome.conflict(.init(.decideAgain, detail: "granted meanwhile"))
        #expect(RacePolicy.attempts == 3)
        #expect(RacePolicy.decidesAgain(race, after: 1))
        #expect(RacePolicy.decidesAgain(race, after: 2))
        #expect(!RacePolicy.decidesAgain(race, after: 3))
        #expect(!RacePolicy.decidesAgain(.conflict(.init(.streamMoved("hold-h"), detail: "moved")), after: 1))
        #expect(!RacePolicy.decidesAgain(.conflict(.init(.keyReused, detail: "reused")), after: 1))
        #expect(!RacePolicy.decidesAgain(.outcomeUnknown("lost"), after: 1))
    }
}
