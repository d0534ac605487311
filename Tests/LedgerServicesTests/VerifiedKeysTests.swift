import LedgerDomain
@testable import LedgerServices
import Synchronization
import Testing
import TestSupport

@Suite("Keys that verified lately, for admission", .bounded)
struct VerifiedKeysTests {
    static func clock() -> (Mutex<Timestamp>, LedgerClock) {
        let now = Mutex(Timestamp(microseconds: 1_000_000_000_000)!)
        return (now, { now.withLock { $0 } })
    }

    @Test("a key is remembered for its lifetime, and each verification starts it again")
    func lifetime() {
        let (now, clock) = Self.clock()
        let keys = VerifiedKeys(lifetime: 60, clock: clock)
        #expect(!keys.contains("d"))
        keys.note("d")
        #expect(keys.contains("d"))
        now.withLock { $0 = Timestamp(microseconds: $0.microseconds + 59_000_000)! }
        #expect(keys.contains("d"))
        keys.note("d")
        now.withLock { $0 = Timestamp(microseconds: $0.microseconds + 59_000_000)! }
        #expect(keys.contains("d"))
        now.withLock { $0 = Timestamp(microseconds: $0.microseconds + 2_000_000)! }
        #expect(!keys.contains("d"))
    }

    @Test("past its capacity the oldest go first, and a key just verified is always remembered")
    func bounded() {
        let (now, clock) = Self.clock()
        let keys = VerifiedKeys(lifetime: 60, capacity: 100, clock: clock)
        for i in 0..<1_000 {
            now.withLock { $0 = Timestamp(microseconds: $0.microseconds + 1)! }
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
        let (now, clock) = Self.clock()
        let keys = VerifiedKeys(lifetime: 60, capacity: 3, clock: clock)
        keys.note("a")
        keys.note("b")
        now.withLock { $0 = Timestamp(microseconds: $0.microseconds + 1)! }
        keys.note("a")
        keys.note("c")
        keys.note("d")  // over capacity: "b" is the oldest now, not "a"
        #expect(keys.contains("a") && keys.contains("c") && keys.contains("d"))
        #expect(!keys.contains("b"))
    }
}
