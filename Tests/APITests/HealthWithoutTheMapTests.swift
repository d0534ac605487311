import API
import EventStore
import Foundation
import HTTP
import LedgerJSON
import LedgerServices
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// The public port answers a load balancer (ready or not, and why in words) and nothing
/// more: the log's head, the projections' positions, the checkpoint and the metrics are on
/// the operations listener (docs/security.md, "Health without the map"). Driven over the
/// real HTTP servers.
@Suite("Health without the map: the public port says ready or not, the operations listener says the rest", .bounded)
struct HealthWithoutTheMapTests {
    /// Members of a detailed readiness that must never reach the public port.
    static let mapFields = ["head", "projections", "replicas", "checkpoint", "checks", "ready"]

    /// The public `/readyz` is exactly a status and a reason among the fixed sentences,
    /// with no digit anywhere in its body.
    static func expectTerse(_ status: Int, _ body: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let value = try JSONValue.parse(body)
        let members = try #require(value.objectValue, sourceLocation: sourceLocation)
        #expect(Set(members.keys) == ["status", "reason"], "\(value)", sourceLocation: sourceLocation)
        for field in mapFields { #expect(members[field] == nil, "\(field) on the public port", sourceLocation: sourceLocation) }
        let hasNumber = String(decoding: body, as: UTF8.self).contains { $0.isNumber }
        #expect(!hasNumber, "a number on the public port: \(value)", sourceLocation: sourceLocation)
        #expect((status == 200) == (value["status"] == "ready"), sourceLocation: sourceLocation)
    }

    @Test("public /readyz names no head or position, ready or stopped, while the operations listener's names both")
    func publicReadinessHasNoPositions() throws {
        let service = try TestService(projections: [LogIndexProjection(), PoisonAfter()])
        defer { service.shutdown() }
        for i in 0..<5 { _ = try service.store.append(AppendRequest(event("org-\(i)"))) }
        let projector = ProjectorThread(url: service.db.projectorURL, projections: [LogIndexProjection(), PoisonAfter()])
        defer { projector.stop() }
        #expect(Poll.until(timeout: 20) { (try? service.get("/readyz").status) == 200 })
        let ready = try service.get("/readyz")
        try Self.expectTerse(ready.status, ready.body)
        #expect(try JSONValue.parse(ready.body) == ["status": "ready", "reason": .string(Readiness.Reason.ready)])
        #expect(ready.headers["Cache-Control"] == "no-store")
        let (_, detailed) = try service.operationsJSON("/readyz")
        #expect(detailed["head"] == 5)
        #expect(detailed["projections"]?.arrayValue?.isEmpty == false)

        // A projection stopped at position 6: the operations listener names the position,
        // the public port only that a projection stopped.
        _ = try service.store.append(AppendRequest(event("org-x", "poison")))
        #expect(Poll.until(timeout: 20) { (try? service.get("/readyz").status) == 503 })
        let stopped = try service.get("/readyz")
        try Self.expectTerse(stopped.status, stopped.body)
        #expect(try JSONValue.parse(stopped.body) == ["status": "not_ready", "reason": .string(Readiness.Reason.projectionStopped)])
        #expect(Poll.until(timeout: 10) {
            (try? service.operationsJSON("/readyz").1["checks"]?["projections"]?["detail"]?.stringValue?.contains("stopped at position 6")) == true
        })
        #expect(try service.operationsGet("/readyz").status == 503, "both say not ready")
    }

    @Test("public /readyz while a projection is not created yet: a sentence, no number")
    func publicReadinessWhileNotReady() throws {
        let service = try TestService(projections: [LogIndexProjection()])
        defer { service.shutdown() }
        // No projector has run: the projection does not exist yet.
        #expect(Poll.until(timeout: 10) {
            (try? JSONValue.parse(service.get("/readyz").body)["reason"]) == .string(Readiness.Reason.projectionMissing)
        })
        let missing = try service.get("/readyz")
        #expect(missing.status == 503)
        try Self.expectTerse(missing.status, missing.body)
    }

    @Test("public /metrics is a 404, and the OpenAPI document lists no /metrics; the operations listener serves it")
    func metricsOnlyOnTheOperationsListener() throws {
        let service = try TestService()
        defer { service.shutdown() }
        let refused = try service.get("/metrics")
        #expect(refused.status == 404)
        #expect(!String(decoding: refused.body, as: UTF8.self).contains("ledger_"), "no metric in the 404")
        let (_, document) = try service.json("/openapi.json")
        #expect(document["paths"]?["/metrics"] == nil)
        #expect(document["paths"]?["/readyz"] != nil)
        let readiness = try #require(document["components"]?["schemas"]?["Readiness"]?["properties"]?.objectValue)
        #expect(Set(readiness.keys) == ["status", "reason"], "the documented public readiness has no map either")

        let scraped = try service.operationsGet("/metrics")
        #expect(scraped.status == 200)
        #expect(scraped.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = String(decoding: scraped.body, as: UTF8.self)
        #expect(text.contains("# TYPE ledger_log_head_position gauge"))
        #expect(text.contains("# TYPE http_requests_total counter"))
        // The operations listener serves nothing of the API.
        #expect(try service.operationsGet("/v1/iap/products").status == 404)
        #expect(try service.operationsGet("/openapi.json").status == 404)
    }
}
