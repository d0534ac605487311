/// A gauge whose samples are computed at render time.
final class CallbackGauge: MetricFamily {
    let name: String
    let help: String
    let labelNames: [String]
    var typeName: String { "gauge" }
    private let samples: @Sendable () -> [MetricSample]

    init(name: String, help: String, labelNames: [String], samples: @escaping @Sendable () -> [MetricSample]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.samples = samples
    }

    func renderSamples(into out: inout String) {
        let rows = samples().map { (key: labelValues($0.labels), value: $0.value) }
        for row in rows.sorted(by: { PrometheusText.labelOrder($0.key, $1.key) }) {
            out += name + PrometheusText.labelSet(labelNames, row.key) + " " + PrometheusText.number(row.value) + "\n"
        }
    }
}
