/// A count that only goes up (requests served, events appended).
public final class Counter: MetricFamily {
    public let name: String
    public let help: String
    public let labelNames: [String]
    var typeName: String { "counter" }
    private let values = SeriesValues()

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    /// Adds `amount` to the series named by `labels`. Negative amounts are ignored:
    /// Prometheus treats any decrease as a counter reset.
    public func increment(by amount: Double = 1, labels: [String: String] = [:]) {
        guard amount >= 0 else { return }
        values.add(amount, at: labelValues(labels))
    }

    /// The current value of one series (0 if it was never incremented).
    public func value(labels: [String: String] = [:]) -> Double { values.value(at: labelValues(labels)) }

    func renderSamples(into out: inout String) { values.render(name: name, labelNames: labelNames, into: &out) }
}
