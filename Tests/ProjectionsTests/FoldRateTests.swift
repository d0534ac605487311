import ProjectionEngine
import Testing
import TestSupport

@Suite("The fold rate admission reads: the events of the projector's last batches over their time")
struct FoldRateTests {
    @Test("over generated batches, the rate is the last eight batches' events over their seconds, computed apart",
          arguments: 0..<50)
    func againstTheSums(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 3)
        var rate = FoldRate()
        var all: [(events: Int64, seconds: Double)] = []
        #expect(rate.perSecond == nil)
        for _ in 0..<random.int(1...40) {
            let sample = (events: Int64(random.int(1...5_000)), seconds: Double(random.int(1...200_000)) / 1_000_000)
            rate.add(events: sample.events, seconds: sample.seconds)
            all.append(sample)
            let kept = all.suffix(FoldRate.window)
            let expected = Double(kept.reduce(0) { $0 + $1.events }) / kept.reduce(0) { $0 + $1.seconds }
            let got = rate.perSecond ?? -1
            #expect(abs(got - expected) <= expected * 1e-12, "seed \(seed): \(got) against \(expected)")
        }
    }

    @Test("a projector that folds a large batch quickly and a small one slowly reads at the rate it kept, not above it")
    func unevenBatches() {
        // Alternately 4,000 events in 50 ms, and 1,000 in 75 ms:
        // 5,000 events each 125 ms, 40,000 events/s. A mean of each batch's own rate
        // (80,000 and 13,333) would read 46,667.
        var rate = FoldRate()
        for i in 0..<16 {
            if i % 2 == 0 { rate.add(events: 4_000, seconds: 0.050) } else { rate.add(events: 1_000, seconds: 0.075) }
        }
        #expect(abs((rate.perSecond ?? 0) - 40_000) < 1e-6)
    }
}
