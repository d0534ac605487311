/// What the registry needs from each kind of metric to render it.
protocol MetricFamily: AnyObject, Sendable {
    var name: String { get }
    var help: String { get }
    var labelNames: [String] { get }
    /// `counter`, `gauge` or `histogram`.
    var typeName: String { get }
    /// Appends the sample lines (not the `# HELP`/`# TYPE` lines).
    func renderSamples(into out: inout String)
}

extension MetricFamily {
    /// The label values in `labelNames` order. A missing label becomes the empty string
    /// and an unknown one is ignored: a metrics mistake must never take the service down,
    /// but it is caught in debug builds.
    func labelValues(_ labels: [String: String]) -> [String] {
        assert(Set(labels.keys) == Set(labelNames), "labels \(labels.keys.sorted()) do not match \(labelNames) on \(name)")
        return labelNames.map { labels[$0] ?? "" }
    }
}
