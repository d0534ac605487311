import Synchronization

/// One number per label set: what a counter and a gauge both keep and render.
final class SeriesValues: Sendable {
    private let values = Mutex<[[String]: Double]>([:])

    func add(_ amount: Double, at key: [String]) {
        values.withLock { $0[key, default: 0] += amount }
    }

    func set(_ value: Double, at key: [String]) {
        values.withLock { $0[key] = value }
    }

    /// 0 for a series never touched.
    func value(at key: [String]) -> Double {
        values.withLock { $0[key] ?? 0 }
    }

    /// Sample lines in label order; a family without labels shows 0 before its first use.
    func render(name: String, labelNames: [String], into out: inout String) {
        var snapshot = values.withLock { $0 }
        if labelNames.isEmpty, snapshot.isEmpty { snapshot[[]] = 0 }
        for key in snapshot.keys.sorted(by: PrometheusText.labelOrder) {
            out += name + PrometheusText.labelSet(labelNames, key) + " " + PrometheusText.number(snapshot[key]!) + "\n"
        }
    }
}
