import LedgerDomain
@testable import LedgerServices
import Testing
import TestSupport

@Suite("Keys that verified lately, for admission", .bounded)
struct VerifiedKeysTests {
    @Test("a key is remembered for its lifetime, and each verification starts it again")
    func lifetime() {
        let clock = ManualClock()
        let keys = VerifiedKeys(lifetime: 60, clock: clock.read)
        #expect(!keys.contains("d"))
        keys.note("d")
        #expect(keys.contains("d"))
        clock.advance(seconds: 59)
        #expect(keys.contains("d"))
        keys.note("d")
        clock.advance(seconds: 59)
        #expect(keys.contains("d"))
        clock.advance(seconds: 2)
        #expect(!keys.contains("d"))
    }

    @Test("past its capacity the oldest go first, and a key just verified is always remembered")
    func bounded() {
        let clock = ManualClock()
        let keys = VerifiedKeys(lifetime: 60, capacity: 100, clock: clock.read)
        for i in 0..<1_000 {
            clock.advance(seconds: 0.000_001)
            keys.note("k\(i)")
            #expect(keys.contains("k\(i)"))
            #expect(keys.count <= 100)
        }
        #expect(!keys.contains("k0"))
        #expect(keys.contains("k999") && keys.contains("k900"))
        #expect(!keys.contains("k899"))
    }

    @Test("a key noted again is not dropped by its older entry reaching the front")
    func notedAgain() {
        let clock = ManualClock()
        let keys = VerifiedKeys(lifetime: 60, capacity: 3, clock: clock.read)
        keys.note("a")
        keys.note("b")
        clock.advance(seconds: 0.000_001)
        keys.note("a")
        keys.note("c")
        keys.note("d")  // over capacity: "b" is the oldest now, not "a"
        #expect(keys.contains("a") && keys.contains("c") && keys.contains("d"))
        #expect(!keys.contains("b"))
    }
}
