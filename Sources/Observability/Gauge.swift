import Synchronization

/// A value that goes up and down (requests in flight, pool size).
public final class Gauge: MetricFamily {
    public let name: String
    public let help: String
    public let labelNames: [String]
    var typeName: String { "gauge" }
    private let values = Mutex<[[String]: Double]>([:])

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    public func set(_ value: Double, labels: [String: String] = [:]) {
        let key = labelValues(labels)
        values.withLock { $0[key] = value }
    }

    public func increment(by amount: Double = 1, labels: [String: String] = [:]) {
        let key = labelValues(labels)
        values.withLock { $0[key, default: 0] += amount }
    }

    public func decrement(by amount: Double = 1, labels: [String: String] = [:]) {
        increment(by: -amount, labels: labels)
    }

    /// The current value of one series (0 if it was never set).
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
