import Observability

/// The server's metrics, registered once per registry.
struct ServerMetrics: Sendable {
    let requests: Counter
    let duration: Histogram
    let inFlight: Gauge
    let refusedConnections: Counter

    init(registry: MetricsRegistry) {
        requests = registry.counter(
            "http_requests_total", help: "HTTP requests answered, by method, route pattern and status.",
            labelNames: ["method", "route", "status"])
        duration = registry.histogram(
            "http_request_duration_seconds", help: "Time from the request line to the last byte of the response.",
            labelNames: ["route"])
        inFlight = registry.gauge("http_requests_in_flight", help: "Requests received and not yet fully answered.")
        refusedConnections = registry.counter(
            "http_connections_refused_total", help: "Connections answered 503 and closed at accept, by limit (address, server).",
            labelNames: ["limit"])
    }

    /// Methods outside this set share one label value, so that junk methods cannot grow
    /// the number of series without bound (routes are bounded the same way by "unmatched").
    static func methodLabel(_ method: String) -> String {
        switch method {
        case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS": return method
        default: return "OTHER"
        }
    }
}
