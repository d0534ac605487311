/// One sample of a callback gauge.
public struct MetricSample: Sendable {
    public var labels: [String: String]
    public var value: Double

    public init(labels: [String: String] = [:], value: Double) {
        self.labels = labels
        self.value = value
    }
}
