@testable import LedgerBench
import Testing
import TestSupport

/// The one percentile of every benchmark's output (nearest rank), checked on generated
/// series against its definition.
@Suite("Percentile", .bounded)
struct PercentileTests {
    @Test("nearest rank: p50 of 1…100 is 50, p99 is 99, p100 the maximum; one value is every percentile; none is 0")
    func examples() {
        let hundred = (1...100).map(Double.init)
        #expect(Percentile.nearestRank(hundred, 0.50) == 50)
        #expect(Percentile.nearestRank(hundred, 0.99) == 99)
        #expect(Percentile.nearestRank(hundred, 1.0) == 100)
        #expect(Percentile.nearestRank(hundred, 0.001) == 1)
        #expect(Percentile.nearestRank([7], 0.99) == 7)
        #expect(Percentile.nearestRank([], 0.5) == 0)
        #expect(Percentile.median([3, 1, 2]) == 2)
        #expect(Percentile.median([4, 1, 3, 2]) == 2.5)
        #expect(Percentile.median([]) == 0)
    }

    @Test("on generated series: the value returned is in the series, at least p of the values are at or below it, and fewer than p are strictly below")
    func definition() {
        var random = SeededRandom(seed: 3301)
        for _ in 0..<2_000 {
            let values = (0..<random.int(1...300)).map { _ in Double(random.int(0...50)) }.sorted()
            let p = [0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 1.0][random.int(0...6)]
            let v = Percentile.nearestRank(values, p)
            let n = Double(values.count)
            #expect(values.contains(v), "seed 3301: \(values) p \(p)")
            #expect(Double(values.filter { $0 <= v }.count) >= p * n, "seed 3301: \(values) p \(p)")
            #expect(Double(values.filter { $0 < v }.count) < p * n, "seed 3301: \(values) p \(p)")
        }
    }
}
