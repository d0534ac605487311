@testable import ProjectionEngine
import Testing

@Suite("A fold rate sample runs from the moment the projection had work, at the head or behind")
struct FoldRateSampleTests {
    let t0 = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { t0 + .milliseconds(milliseconds) }

    @Test("behind the head at its last advance, the projection folded from that advance on")
    func behind() {
        let began = ProjectionProgress.workBegan(after: 100, lastAdvance: (at(10), true),
                                                 heads: [(150, at(2)), (200, at(12))])
        #expect(began == at(10))
    }

    @Test("at the head at its last advance, the projection had work when the first head past it was seen, not before")
    func atTheHead() {
        // Heads at or below its position are ones it had applied; the wait for the log
        // between its last advance (10 ms) and the next head (30 ms) is not folding.
        let began = ProjectionProgress.workBegan(after: 200, lastAdvance: (at(10), false),
                                                 heads: [(150, at(1)), (200, at(5)), (260, at(30)), (300, at(34))])
        #expect(began == at(30))
    }

    @Test("a head seen before the advance that did not count it (its notification came late) starts at the advance")
    func headSeenEarlier() {
        let began = ProjectionProgress.workBegan(after: 200, lastAdvance: (at(10), false), heads: [(260, at(8))])
        #expect(began == at(10))
    }

    @Test("without an advance before, or at the head with no head past it seen, there is no sample")
    func unknown() {
        #expect(ProjectionProgress.workBegan(after: 200, lastAdvance: nil, heads: [(260, at(8))]) == nil)
        #expect(ProjectionProgress.workBegan(after: 200, lastAdvance: (at(10), false), heads: [(200, at(8))]) == nil)
    }
}
