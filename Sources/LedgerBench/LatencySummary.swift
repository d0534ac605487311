import Foundation
import LedgerCLI

/// Throughput and latency percentiles of one measured series of requests.
struct LatencySummary: Sendable {
    var count: Int
    /// Wall-clock seconds of the whole series.
    var seconds: Double
    /// Per request, in seconds, sorted.
    var sorted: [Double]

    init(latencies: [Double], seconds: Double) {
        self.count = latencies.count
        self.seconds = seconds
        self.sorted = latencies.sorted()
    }

    /// Several series as one: their requests together, over the sum of their durations.
    init(merging series: [LatencySummary]) {
        self.count = series.reduce(0) { $0 + $1.count }
        self.seconds = series.reduce(0) { $0 + $1.seconds }
        self.sorted = series.flatMap(\.sorted).sorted()
    }

    var perSecond: Double { Double(count) / Swift.max(seconds, 1e-9) }

    /// The percentile (`Percentile.nearestRank`), in milliseconds (0 for an empty series).
    func milliseconds(_ percentile: Double) -> Double {
        Percentile.nearestRank(sorted, percentile) * 1000
    }

    var p50: Double { milliseconds(0.50) }
    var p99: Double { milliseconds(0.99) }
    var maximum: Double { (sorted.last ?? 0) * 1000 }

    /// `label: N requests/s, p50 X ms, p99 Y ms, max Z ms`, with `unit` naming what is counted.
    func line(_ label: String, unit: String = "requests") -> String {
        "\(label): " + String(format: "%.0f", perSecond) + " \(unit)/s, "
            + String(format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms", p50, p99, maximum)
            + " (\(count) \(unit) in " + String(format: "%.1f s)", seconds)
    }
}
