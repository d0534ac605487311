import HTTP
import LedgerJSON

extension OpenAPIDocument {
    /// The answers every operation may give besides its own, declared on each so that the
    /// document is the whole truth: 400 (a malformed target, parameter, header field or
    /// body), 413 (a body too large), 415 and a malformed body for operations that take
    /// one, 429 (too many requests of one client in the server) and 503 (a dependency
    /// down, the server overloaded or stopping, a wait for the projections timed out),
    /// the last two with `Retry-After`; inline routes are never queued, so they give
    /// neither. Every response carries `X-Request-Id` and `X-Content-Type-Options`, every
    /// error `Cache-Control` (`HTTPResponse.addServerHeaders`). Errors of the catalog surface are
    /// the seed's `Error`, the others RFC 9457 problems.
    static func completing(_ paths: JSONValue, router: Router) -> JSONValue {
        guard case .object(var items) = paths else { return paths }
        for (path, item) in items {
            guard case .object(var methods) = item else { continue }
            for (method, operation) in methods {
                guard case .object(var op) = operation, case .object(var responses)? = op["responses"] else { continue }
                let catalog = path.hasPrefix("/v1/iap/")
                let inline = router.isInline(method.uppercased(), path)
                var common: [(String, String, Bool)] = [
                    ("400", "Malformed: the request target, a parameter, a header field or the body (the code says which).", false),
                    ("413", "The body is larger than the server accepts (payload_too_large).", false),
                ]
                if op["requestBody"] != nil {
                    common.append(("415", "The body is not application/json (unsupported_media_type).", false))
                }
                if !inline {
                    common.append(("429", "This client has too many requests in the server already (too_many_requests); see Retry-After.", true))
                    common.append(("503", "Try again later (see Retry-After): database_unavailable, store_unavailable, append_outcome_unknown (the request may be recorded; sending it again is safe), contention (concurrent requests kept changing what this one is decided on; nothing was recorded), projection_behind, overloaded, shutting_down.", true))
                }
                for (status, description, retry) in common where responses[status] == nil {
                    responses[status] = catalog ? catalogError(description) : OpenAPIOperations.problem(description)
                    if retry { responses[status] = withHeader(responses[status]!, "Retry-After") }
                }
                for status in ["429", "503"] {
                    if let response = responses[status] { responses[status] = withHeader(response, "Retry-After") }
                }
                for (status, response) in responses {
                    var response = withHeader(withHeader(response, "X-Request-Id"), "X-Content-Type-Options")
                    if let code = Int(status), code >= 400 { response = withHeader(response, "Cache-Control") }
                    responses[status] = response
                }
                op["responses"] = .object(responses)
                methods[method] = .object(op)
            }
            items[path] = .object(methods)
        }
        return .object(items)
    }

    /// The response headers the document names.
    static var headers: [String: JSONValue] {
        [
            "X-Request-Id": [
                "description": "The request's id: the client's own `X-Request-Id` when it is 1-128 of A-Z a-z 0-9 . _ : -, else one made here; in every log line about the request.",
                "schema": ["type": "string"],
            ],
            "Retry-After": ["description": "Seconds after which a retry may succeed.", "schema": ["type": "integer"]],
            "X-Content-Type-Options": ["description": "`nosniff` on every answer: the body is only what its Content-Type says.",
                                       "schema": ["type": "string", "const": "nosniff"]],
            "Cache-Control": ["description": "`private, no-store` on every error and every private answer: no cache keeps it; `public, max-age=86400` on the pages of `/problems`.",
                              "schema": ["type": "string"]],
        ]
    }

    static func catalogError(_ description: String) -> JSONValue {
        ["description": .string(description), "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]]]
    }

    private static func withHeader(_ response: JSONValue, _ name: String) -> JSONValue {
        guard case .object(var members) = response else { return response }
        var headers = members["headers"]?.objectValue ?? [:]
        headers[name] = ["$ref": .string("#/components/headers/" + name)]
        members["headers"] = .object(headers)
        return .object(members)
    }
}
