import API
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres
import ProjectionEngine
import Projections
import Synchronization
import TestSupport
import Testing

@Suite("Health, readiness, metrics and the OpenAPI document, over HTTP (the public port and the operations listener)", .bounded)
struct OperationsEndpointTests {
    @Test("/healthz answers 200 without the database")
    func healthz() throws {
        let service = try TestService()
        defer { service.shutdown() }
        let (status, body) = try service.json("/healthz")
        #expect(status == 200)
        #expect(body == ["status": "ok"])
    }

    @Test("the operations listener's /readyz is 503 until the projections exist and catch up, then 200; 503 again when one stops")
    func readyz() throws {
        let service = try TestService(projections: [LogIndexProjection(), PoisonAfter()])
        defer { service.shutdown() }
        // Readiness is checked in the background: wait for the first check.
        #expect(Poll.until(timeout: 10) { (try? service.operationsJSON("/readyz").1["checks"]?["database"]?["ok"]) == true })
        var (status, body) = try service.operationsJSON("/readyz")
        #expect(status == 503)
        #expect(body["checks"]?["database"]?["ok"] == true)
        #expect(body["checks"]?["migrations"]?["ok"] == true)
        #expect(body["checks"]?["projections"]?["ok"] == false)

        for i in 0..<5 { _ = try service.store.append(AppendRequest(event("org-\(i)"))) }
        let projector = ProjectorThread(url: service.db.projectorURL, projections: [LogIndexProjection(), PoisonAfter()])
        defer { projector.stop() }
        #expect(Poll.until { (try? service.operationsJSON("/readyz").0) == 200 })
        (status, body) = try service.operationsJSON("/readyz")
        #expect(body["head"] == 5)
        #expect(body["status"] == "ready")

        _ = try service.store.append(AppendRequest(event("org-x", "poison")))
        #expect(Poll.until { (try? service.operationsJSON("/readyz").0) == 503 })
        (status, body) = try service.operationsJSON("/readyz")
        #expect(body["checks"]?["projections"]?["detail"]?.stringValue?.contains("stopped at position 6") == true)
    }

    @Test("the operations listener's /readyz names a pending migration; the public one says one is pending")
    func readyzPendingMigration() throws {
        let service = try TestService()
        defer { service.shutdown() }
        try service.db.connect().query("DELETE FROM schema_migrations WHERE version = 2")
        #expect(Poll.until(timeout: 10) {
            (try? service.operationsJSON("/readyz").1["checks"]?["migrations"]?["detail"]?.stringValue?.contains("2_service_role")) == true
        })
        let (status, body) = try service.operationsJSON("/readyz")
        #expect(status == 503)
        #expect(body["checks"]?["migrations"]?["detail"]?.stringValue?.contains("2_service_role") == true)
        let (publicStatus, publicBody) = try service.json("/readyz")
        #expect(publicStatus == 503)
        #expect(publicBody == ["status": "not_ready", "reason": .string(Readiness.Reason.migrationPending)])
    }

    @Test("the operations listener's /metrics: requests by route and status, latency histogram, appends, log head, projection lag")
    func metrics() throws {
        let service = try TestService()
        defer { service.shutdown() }
        // Through the service's own store, as the API's login: one of the types it appends.
        _ = try service.context.appendAndWait(AppendRequest(event("org-1", OfferImpressionsCounted.type)))
        _ = try service.get("/healthz")
        _ = try service.get("/nowhere")
        // The log's gauges come from the background check: wait for one that saw the event.
        #expect(Poll.until(timeout: 10) {
            String(decoding: (try? service.operationsGet("/metrics").body) ?? [], as: UTF8.self).contains("ledger_log_head_position 1")
        })
        let response = try service.operationsGet("/metrics")
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.contains(#"http_requests_total{method="GET",route="/healthz",status="200"} 1"#))
        #expect(text.contains(#"http_requests_total{method="GET",route="unmatched",status="404"} 1"#))
        #expect(text.contains("# TYPE http_request_duration_seconds histogram"))
        #expect(text.contains(#"ledger_appends_total{result="appended"} 1"#))
        #expect(text.contains("ledger_log_head_position 1"))
        #expect(text.contains(#"ledger_projection_lag_events{projection="catalogue"} 1"#))
    }

    @Test("/openapi.json is OpenAPI 3.1 and lists exactly the routes the router serves")
    func openAPI() throws {
        let service = try TestService()
        defer { service.shutdown() }
        let (status, document) = try service.json("/openapi.json")
        #expect(status == 200)
        #expect(document["openapi"] == "3.1.0")
        let paths = try #require(document["paths"]?.objectValue)
        var documented = Set<String>()
        for (path, item) in paths {
            for method in item.objectValue?.keys ?? [:].keys { documented.insert("\(method.uppercased()) \(path)") }
        }
        let routed = Set(LedgerAPI.router(service.context).routes.map { "\($0.method) \($0.pattern)" })
        #expect(documented == routed)
        // Every $ref points at a component that exists.
        for ref in Self.refs(in: document) {
            let parts = ref.split(separator: "/").map(String.init)
            #expect(parts.count == 4 && parts[0] == "#" && parts[1] == "components" && document["components"]?[parts[2]]?[parts[3]] != nil,
                    "dangling \(ref)")
        }
    }

    @Test("an unknown route is a 404 problem in JSON")
    func unknownRoute() throws {
        let service = try TestService()
        defer { service.shutdown() }
        let response = try service.get("/v1/nothing/here")
        #expect(response.status == 404)
        #expect(response.headers["content-type"] == "application/problem+json")
        let problem = try JSONValue.parse(response.body)
        #expect(problem["code"] == "not_found")
        #expect(problem["status"] == 404)
    }

    static func refs(in value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
            return members.flatMap { key, v in key == "$ref" ? [v.stringValue ?? ""] : refs(in: v) }
        case .array(let items): return items.flatMap(refs(in:))
        default: return []
        }
    }
}

/// A second projection that stops on `poison`, to make /readyz fail.
struct PoisonAfter: Projection {
    let name = "poison_api_test"
    let version = 1
    let tables: [String] = []
    var tablesSQL: [String] { [] }
    func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        for event in events where event.type == "poison" {
            throw PoisonEvent(position: event.position, underlying: ProjectionError("poison"))
        }
    }
}

func event(_ stream: String, _ type: String = "test.happened") -> EventToAppend {
    EventToAppend(stream: stream, type: type, data: ["n": 1], metadata: EventMetadata(actor: Actor(.system, "tests")))
}
