import Synchronization

/// Counters, gauges and histograms, rendered in the Prometheus text exposition format
/// (version 0.0.4) by `render()`.
///
/// Registration happens at start-up and returns a handle; the hot path only touches the
/// handle's own mutex, never the registry's. Registering a name again with the same kind
/// and label names returns the existing metric, so that two servers sharing a registry
/// do not collide; any other reuse of a name is a programming error and traps.
public final class MetricsRegistry: Sendable {
    private let families = Mutex<[any MetricFamily]>([])

    public init() {}

    /// A monotonically increasing count.
    public func counter(_ name: String, help: String, labelNames: [String] = []) -> Counter {
        register(name, labelNames: labelNames) { Counter(name: name, help: help, labelNames: labelNames) }
    }

    /// A value that goes up and down, set by the code that knows it.
    public func gauge(_ name: String, help: String, labelNames: [String] = []) -> Gauge {
        register(name, labelNames: labelNames) { Gauge(name: name, help: help, labelNames: labelNames) }
    }

    /// A gauge whose samples are read when the registry is rendered, e.g. a projector's
    /// position read from the database at scrape time. `samples` runs without any
    /// registry lock held, so it may block; an empty result omits the metric's samples.
    public func gauge(
        _ name: String, help: String, labelNames: [String] = [],
        samples: @escaping @Sendable () -> [MetricSample]
    ) {
        let _: CallbackGauge = register(name, labelNames: labelNames) {
            CallbackGauge(name: name, help: help, labelNames: labelNames, samples: samples)
        }
    }

    /// An unlabelled gauge read at render time; `nil` omits the sample.
    public func gauge(_ name: String, help: String, value: @escaping @Sendable () -> Double?) {
        gauge(name, help: help, labelNames: []) {
            value().map { [MetricSample(labels: [:], value: $0)] } ?? []
        }
    }

    /// Observations counted into fixed buckets, with their sum and count.
    public func histogram(
        _ name: String, help: String, labelNames: [String] = [],
        buckets: [Double] = Histogram.defaultLatencyBuckets
    ) -> Histogram {
        register(name, labelNames: labelNames) {
            Histogram(name: name, help: help, labelNames: labelNames, buckets: buckets)
        }
    }

    /// Every metric, in registration order, as Prometheus text format 0.0.4.
    public func render() -> String {
        // Copied out so that callback gauges and the families' own locks run without the
        // registry lock held.
        let snapshot = families.withLock { $0 }
        var out = ""
        for family in snapshot {
            out += "# HELP \(family.name) \(PrometheusText.escapeHelp(family.help))\n"
            out += "# TYPE \(family.name) \(family.typeName)\n"
            family.renderSamples(into: &out)
        }
        return out
    }

    private func register<Metric: MetricFamily>(
        _ name: String, labelNames: [String], make: () -> Metric
    ) -> Metric {
        precondition(PrometheusText.isValidMetricName(name), "invalid metric name \(name)")
        for label in labelNames {
            precondition(PrometheusText.isValidLabelName(label), "invalid label name \(label) on \(name)")
        }
        return families.withLock { families in
            if let existing = families.first(where: { $0.name == name }) {
                guard let same = existing as? Metric, same.labelNames == labelNames else {
                    preconditionFailure("metric \(name) is already registered with another kind or other labels")
                }
                return same
            }
            let metric = make()
            families.append(metric)
            return metric
        }
    }
}
