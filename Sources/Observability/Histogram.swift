import Synchronization

/// Observations (latencies, sizes) counted into fixed buckets.
public final class Histogram: MetricFamily {
    /// Request latencies in seconds, from half a millisecond to ten seconds.
    public static let defaultLatencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    public let name: String
    public let help: String
    public let labelNames: [String]
    /// Upper bounds, ascending, without `+Inf` (which is implicit).
    public let buckets: [Double]
    var typeName: String { "histogram" }
    private let series = Mutex<[[String]: Series]>([:])

    struct Series {
        /// Per-bucket counts, not cumulative; made cumulative when rendered.
        var bucketCounts: [UInt64]
        var sum: Double = 0
        var count: UInt64 = 0
    }

    init(name: String, help: String, labelNames: [String], buckets: [Double]) {
        precondition(!labelNames.contains("le"), "histogram \(name) cannot have a label named le")
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.buckets = Array(Set(buckets.filter { $0.isFinite })).sorted()
    }

    public func observe(_ value: Double, labels: [String: String] = [:]) {
        let key = labelValues(labels)
        let index = buckets.firstIndex(where: { value <= $0 })
        series.withLock { all in
            var entry = all[key] ?? Series(bucketCounts: Array(repeating: 0, count: buckets.count))
            if let index { entry.bucketCounts[index] += 1 }
            entry.sum += value
            entry.count += 1
            all[key] = entry
        }
    }

    /// The number of observations of one series.
    public func count(labels: [String: String] = [:]) -> UInt64 {
        let key = labelValues(labels)
        return series.withLock { $0[key]?.count ?? 0 }
    }

    func renderSamples(into out: inout String) {
        var snapshot = series.withLock { $0 }
        if labelNames.isEmpty, snapshot.isEmpty {
            snapshot[[]] = Series(bucketCounts: Array(repeating: 0, count: buckets.count))
        }
        let bucketLabels = labelNames + ["le"]
        for key in snapshot.keys.sorted(by: PrometheusText.labelOrder) {
            let entry = snapshot[key]!
            var cumulative: UInt64 = 0
            for (bound, count) in zip(buckets, entry.bucketCounts) {
                cumulative += count
                out += name + "_bucket" + PrometheusText.labelSet(bucketLabels, key + [PrometheusText.number(bound)])
                    + " " + String(cumulative) + "\n"
            }
            out += name + "_bucket" + PrometheusText.labelSet(bucketLabels, key + ["+Inf"]) + " " + String(entry.count) + "\n"
            out += name + "_sum" + PrometheusText.labelSet(labelNames, key) + " " + PrometheusText.number(entry.sum) + "\n"
            out += name + "_count" + PrometheusText.labelSet(labelNames, key) + " " + String(entry.count) + "\n"
        }
    }
}
