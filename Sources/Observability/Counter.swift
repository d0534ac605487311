import Synchronization

/// A count that only goes up (requests served, events appended).
public final class Counter: MetricFamily {
    public let name: String
    public let help: String
    public let labelNames: [String]
    var typeName: String { "counter" }
    private let values = Mutex<[[String]: Double]>([:])

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    /// Adds `amount` to the series named by `labels`. Negative amounts are ignored:
    /// Prometheus treats any decrease as a counter reset.
    public func increment(by amount: Double = 1, labels: [String: String] = [:]) {
        guard amount >= 0 else { return }
        let key = labelValues(labels)
        values.withLock { $0[key, default: 0] += amount }
    }

    /// The current value of one series (0 if it was never incremented).
    public func value(labels: [String: String] = [:]) -> Double {
        let key = labelValues(labels)
        return values.withLock { $0[key] ?? 0 }
    }

    func renderSamples(into out: inout String) {
        var snapshot = values.withLock { $0 }
        if labelNames.isEmpty, snapshot.isEmpty { snapshot[[]] = 0 }
        for key in snapshot.keys.sorted(by: PrometheusText.labelOrder) {
            out += name + PrometheusText.labelSet(labelNames, key) + " " + PrometheusText.number(snapshot[key]!) + "\n"
        }
    }
}
