import Foundation
import Observability
import Synchronization
import Testing
import TestSupport

@Suite("MetricsRegistry", .bounded)
struct MetricsRegistryTests {
    @Test func rendersCountersAndGaugesInTextFormat() {
        let registry = MetricsRegistry()
        let requests = registry.counter("http_requests_total", help: "Requests.\nSecond line with \\.", labelNames: ["method", "status"])
        let open = registry.gauge("open_connections", help: "Open connections.")
        requests.increment(labels: ["method": "GET", "status": "200"])
        requests.increment(by: 2, labels: ["method": "GET", "status": "200"])
        requests.increment(labels: ["method": "POST", "status": "201"])
        requests.increment(by: -5, labels: ["method": "POST", "status": "201"])
        open.set(7)
        open.decrement()
        #expect(registry.render().split(separator: "\n", omittingEmptySubsequences: false) == [
            #"# HELP http_requests_total Requests.\nSecond line with \\."#,
            "# TYPE http_requests_total counter",
            #"http_requests_total{method="GET",status="200"} 3"#,
            #"http_requests_total{method="POST",status="201"} 1"#,
            "# HELP open_connections Open connections.",
            "# TYPE open_connections gauge",
            "open_connections 6",
            "",
        ])
    }

    @Test func histogramBucketsAreCumulativeWithInfSumAndCount() {
        let registry = MetricsRegistry()
        let latency = registry.histogram("latency_seconds", help: "Latency.", labelNames: ["route"], buckets: [0.1, 0.5, 1])
        for value in [0.05, 0.1, 0.3, 0.7, 3.0] { latency.observe(value, labels: ["route": "/a"]) }
        #expect(registry.render().split(separator: "\n").map(String.init) == [
            "# HELP latency_seconds Latency.",
            "# TYPE latency_seconds histogram",
            #"latency_seconds_bucket{route="/a",le="0.1"} 2"#,
            #"latency_seconds_bucket{route="/a",le="0.5"} 3"#,
            #"latency_seconds_bucket{route="/a",le="1"} 4"#,
            #"latency_seconds_bucket{route="/a",le="+Inf"} 5"#,
            #"latency_seconds_sum{route="/a"} 4.15"#,
            #"latency_seconds_count{route="/a"} 5"#,
        ])
    }

    @Test func defaultLatencyBucketsSpanHalfAMillisecondToTenSeconds() {
        let registry = MetricsRegistry()
        _ = registry.histogram("d", help: "d")
        let lines = registry.render().split(separator: "\n")
        #expect(lines.first { $0.hasPrefix("d_bucket") } == #"d_bucket{le="0.0005"} 0"#)
        #expect(lines.filter { $0.hasPrefix("d_bucket") }.dropLast().last == #"d_bucket{le="10"} 0"#)
        #expect(lines.contains(#"d_bucket{le="+Inf"} 0"#))
        #expect(lines.contains("d_count 0"))
    }

    @Test func callbackGaugeIsEvaluatedAtRenderTime() {
        let registry = MetricsRegistry()
        let position = PositionBox()
        registry.gauge("projector_position", help: "Last applied position.") { Double(position.value()) }
        registry.gauge("lag", help: "Lag.", labelNames: ["projection"]) {
            [MetricSample(labels: ["projection": "journal"], value: 2), MetricSample(labels: ["projection": "balances"], value: 1)]
        }
        position.set(41)
        #expect(registry.render().contains("\nprojector_position 41\n"))
        position.set(42)
        let text = registry.render()
        #expect(text.contains("\nprojector_position 42\n"))
        #expect(text.contains("lag{projection=\"balances\"} 1\nlag{projection=\"journal\"} 2\n"))
    }

    @Test func registeringTheSameMetricAgainReturnsIt() {
        let registry = MetricsRegistry()
        let first = registry.counter("c_total", help: "c", labelNames: ["a"])
        let second = registry.counter("c_total", help: "c", labelNames: ["a"])
        first.increment(labels: ["a": "x"])
        second.increment(labels: ["a": "x"])
        #expect(first.value(labels: ["a": "x"]) == 2)
        #expect(registry.render().components(separatedBy: "# TYPE c_total").count == 2)
    }

    @Test func numbersUsePrometheusSpelling() {
        #expect(PrometheusText.number(3) == "3")
        #expect(PrometheusText.number(0.25) == "0.25")
        #expect(PrometheusText.number(.infinity) == "+Inf")
        #expect(PrometheusText.number(-.infinity) == "-Inf")
        #expect(PrometheusText.number(.nan) == "NaN")
        #expect(PrometheusText.isValidMetricName("http_requests_total"))
        #expect(!PrometheusText.isValidMetricName("2xx"))
        #expect(!PrometheusText.isValidLabelName("__name"))
    }

    /// Property: any label value survives escaping and the Prometheus unescaping rules.
    @Test func randomLabelValuesEscapeAndRoundTrip() {
        var random = SeededRandom(seed: 0x5EED_0001)
        let alphabet: [Character] = ["a", "Z", "0", " ", "\\", "\"", "\n", "{", "}", ",", "=", "é", "\t", "n"]
        for _ in 0..<500 {
            let value = random.string(from: alphabet, length: Int.random(in: 0...24, using: &random))
            let escaped = PrometheusText.escapeLabelValue(value)
            #expect(!escaped.contains("\n"))
            #expect(Self.unescape(escaped) == value, "value \(value.debugDescription)")
            // Every quote is escaped, so the value cannot end the label early.
            var previousBackslashes = 0
            for character in escaped {
                if character == "\"" { #expect(previousBackslashes % 2 == 1) }
                previousBackslashes = character == "\\" ? previousBackslashes + 1 : 0
            }
        }
    }

    /// The unescaping a Prometheus parser applies to a label value.
    static func unescape(_ escaped: String) -> String {
        var out = ""
        var iterator = escaped.makeIterator()
        while let character = iterator.next() {
            guard character == "\\", let next = iterator.next() else { out.append(character); continue }
            switch next {
            case "n": out.append("\n")
            default: out.append(next)
            }
        }
        return out
    }

    @Test func concurrentIncrementsAreAllCounted() {
        let registry = MetricsRegistry()
        let counter = registry.counter("hits_total", help: "Hits.", labelNames: ["k"])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for _ in 0..<1000 { counter.increment(labels: ["k": index.isMultiple(of: 2) ? "even" : "odd"]) }
        }
        #expect(counter.value(labels: ["k": "even"]) == 4000)
        #expect(counter.value(labels: ["k": "odd"]) == 4000)
    }
}

/// A value a callback gauge reads, as a projector's position would be read from the database.
final class PositionBox: Sendable {
    private let storage = Mutex(0)
    func set(_ value: Int) { storage.withLock { $0 = value } }
    func value() -> Int { storage.withLock { $0 } }
}
