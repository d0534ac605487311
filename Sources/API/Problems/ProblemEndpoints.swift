import HTTP
import LedgerJSON

/// `GET /problems` and `GET /problems/{code}`: the pages every problem's `type`
/// (`/problems/<code>`) resolves to. Public, the same for everyone, rendered once when the
/// router is built, and answered on the network thread like `/openapi.json`.
enum ProblemEndpoints {
    static func register(in router: inout Router) {
        let index = ProblemPages.response(ProblemPages.index())
        var pages: [String: HTTPResponse] = [:]
        for type in ProblemTypes.all { pages[type.code] = ProblemPages.response(ProblemPages.page(for: type)) }
        let known = pages

        router.add("GET", "/problems", operation: operation(
            id: "listProblemTypes", summary: "Every error code, by surface: an HTML page.",
            description: "The index of the pages problem `type`s resolve to: each code with its status and title, grouped by surface. The same text as docs/errors.md.",
            responses: ["200": page("The index.")]), inline: true) { _ in index }

        router.add("GET", "/problems/{code}", operation: operation(
            id: "getProblemType", summary: "What one error code means and what to do: an HTML page.",
            description: "The page a problem's `type` (`/problems/<code>`) resolves to: the code's status, what it means, whether anything was recorded, and what to do. 404 for a code the ledger never answers.",
            parameters: [["name": "code", "in": "path", "required": true, "schema": ["type": "string"],
                          "description": "An error code, as a problem's `code` carries it."]],
            responses: ["200": page("The code's page."),
                        "404": OpenAPIOperations.problem("No such code (not_found).")]), inline: true) { request in
            let code = request.pathParameters["code"] ?? ""
            guard let response = known[code] else {
                throw Problem(status: 404, code: "not_found",
                              detail: "The ledger has no error code \(code.debugDescription); \(ProblemTypes.pathPrefix.dropLast()) lists every one.")
            }
            return response
        }
    }

    static func operation(id: String, summary: String, description: String, parameters: [JSONValue] = [],
                          responses: [String: JSONValue]) -> JSONValue {
        var op = OperationsEndpoints.operation(id: id, summary: summary, description: description, tags: ["Problems"], responses: responses)
        if !parameters.isEmpty, case .object(var members) = op {
            members["parameters"] = .array(parameters)
            op = .object(members)
        }
        return op
    }

    /// A 200 HTML page, with the caching every page is served with.
    static func page(_ description: String) -> JSONValue {
        ["description": .string(description),
         "headers": ["Cache-Control": ["$ref": "#/components/headers/Cache-Control"]],
         "content": ["text/html": ["schema": ["type": "string"]]]]
    }
}
