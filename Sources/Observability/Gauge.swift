/// A value that goes up and down (requests in flight, pool size).
public final class Gauge: MetricFamily {
    public let name: String
    public let help: String
    public let labelNames: [String]
    var typeName: String { "gauge" }
    private let values = SeriesValues()

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    public func set(_ value: Double, labels: [String: String] = [:]) { values.set(value, at: labelValues(labels)) }

    public func increment(by amount: Double = 1, labels: [String: String] = [:]) { values.add(amount, at: labelValues(labels)) }

    public func decrement(by amount: Double = 1, labels: [String: String] = [:]) { increment(by: -amount, labels: labels) }

    /// The current value of one series (0 if it was never set).
    public func value(labels: [String: String] = [:]) -> Double { values.value(at: labelValues(labels)) }

    func renderSamples(into out: inout String) { values.render(name: name, labelNames: labelNames, into: &out) }
}
