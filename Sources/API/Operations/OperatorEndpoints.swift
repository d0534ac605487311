import HTTP
import LedgerServices

/// The operations listener's routes (`LEDGER_METRICS_ADDRESS`, default 127.0.0.1:9464):
/// `/metrics` and `/readyz` in full, with the log's head, each projection's position and
/// lag, the last checkpoint and the read replicas with their addresses.
///
/// They are the map of the deployment, so they are never on the public port, whose
/// `/readyz` says only ready or not and why in words (docs/security.md, "Health without the
/// map"). Every route is answered inline, from what the background monitor last saw, so a
/// scrape or a probe never waits for the database. No OpenAPI document: these are for
/// operators and Prometheus, not for the API's clients.
enum OperatorEndpoints {
    static func register(in router: inout Router, context: ServiceContext) {
        router.add("GET", "/healthz", inline: true) { _ in .json(["status": "ok"]) }

        router.add("GET", "/readyz", inline: true) { _ in
            let readiness = context.monitor.readiness
            return .json(readiness, status: readiness.ready ? 200 : 503, headers: ["Cache-Control": "no-store"])
        }

        router.add("GET", "/metrics", inline: true) { _ in
            .text(context.metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }
}
