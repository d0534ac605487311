import Foundation
import HTTP
import LedgerJSON
import LedgerServices

/// `/healthz`, `/readyz` and `/openapi.json` on the public port: for load balancers and
/// clients. The metrics and the detailed readiness are the operations listener's
/// (`OperatorEndpoints`).
enum OperationsEndpoints {
    static func register(in router: inout Router, context: ServiceContext) {
        router.add("GET", "/healthz", operation: operation(
            id: "getHealth", summary: "Liveness: the process is up and serving HTTP.",
            description: "Answers 200 without touching the database, so that a slow database does not get the process restarted.",
            responses: ["200": response("The process is alive.", schema: "Health")]), inline: true) { _ in
            .json(["status": "ok"])
        }

        router.add("GET", "/readyz", operation: operation(
            id: "getReadiness", summary: "Readiness: database reachable, migrations current, projector caught up.",
            description: "503 when the database cannot be reached, a migration is pending, a projection stopped on a poison event, or the projector is more than LEDGER_READY_MAX_LAG events behind; `reason` says which, in words. Answered from a check made in the background every second, so it never waits for the database. Positions, lag and replicas are on the operations listener (LEDGER_METRICS_ADDRESS), never here.",
            responses: ["200": response("Ready to serve.", schema: "Readiness"),
                        "503": response("Not ready; `reason` says why.", schema: "Readiness")]), inline: true) { _ in
            // The status and a sentence, nothing more: the head is shown only to a caller
            // allowed the read (docs/security.md, "Health without the map").
            let readiness = PublicReadiness(context.monitor.readiness)
            return .json(readiness, status: readiness.ready ? 200 : 503, headers: ["Cache-Control": "no-store"])
        }
    }

    /// Registered last: the document lists every route registered before it, and itself.
    static func registerOpenAPI(in router: inout Router) {
        let operation = operation(
            id: "getOpenAPI", summary: "This OpenAPI 3.1 document.",
            description: "Every route the service serves, generated from the router itself.",
            responses: ["200": ["description": "The document.", "content": ["application/json": ["schema": ["type": "object"]]]]])
        var paths = router.openAPIPaths().objectValue ?? [:]
        paths["/openapi.json"] = ["get": operation]
        var all = router
        all.add("GET", "/openapi.json", operation: operation, inline: true) { _ in HTTPResponse(status: 200) }
        let document = OpenAPIDocument.build(paths: OpenAPIDocument.completing(.object(paths), router: all)).compactBytes(sortedKeys: true)
        router.add("GET", "/openapi.json", operation: operation, inline: true) { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: document)
        }
    }

    static func operation(id: String, summary: String, description: String, tags: [String] = ["Operations"],
                          responses: [String: JSONValue]) -> JSONValue {
        ["operationId": .string(id), "summary": .string(summary), "description": .string(description),
         "tags": .array(tags.map(JSONValue.string)), "security": [], "responses": .object(responses)]
    }

    static func response(_ description: String, schema: String) -> JSONValue {
        ["description": .string(description),
         "content": ["application/json": ["schema": ["$ref": .string("#/components/schemas/\(schema)")]]]]
    }
}
