import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices

/// The log's transparency surface (docs/audit.md): signed checkpoints, and
/// inclusion and consistency proofs over the Merkle tree. Proofs need an auditor key
/// (`ledger admin key issue --auditor NAME`); checkpoints too, unless
/// LEDGER_PUBLIC_CHECKPOINTS makes them public (they reveal only the log's size).
public enum LogEndpoints {
    static func register(in router: inout Router, context: ServiceContext) {
        router.add("GET", "/v1/log/checkpoints/{position}", operation: operation(
            id: "getLogCheckpoint", summary: "A signed checkpoint of the log: `latest`, or the one recorded at a position.",
            description: "The checkpoint's fields, its signed `text` (its exact bytes), the Ed25519 `signature` (base64) and the public key. Needs an auditor key unless the service makes checkpoints public.",
            parameters: [["name": "position", "in": "path", "required": true, "schema": ["type": "string"],
                          "description": "`latest`, or the log position of a `log.checkpoint` event."]],
            schema: "LogCheckpoint", extra: ["404": OpenAPIOperations.problem("No such checkpoint (or none signed yet).")])) { request in
            try checkpoint(request, context: context)
        }
        router.add("GET", "/v1/log/proofs/inclusion", operation: operation(
            id: "getInclusionProof", summary: "Proof that the event at a position is in the tree of a size (RFC 9162 §2.1.3).",
            description: "The audit path, the root it leads to, the event itself and its canonical bytes: enough to recompute its chain hash, its leaf and the root without any of the ledger's code.",
            parameters: [query("position", "The event's position (leaf position − 1)."), query("size", "The tree's size: a checkpoint's `size`.")],
            schema: "InclusionProof", extra: [:])) { request in
            try inclusion(request, context: context)
        }
        router.add("GET", "/v1/log/proofs/consistency", operation: operation(
            id: "getConsistencyProof", summary: "Proof that the tree of one size is the beginning of the tree of a later size (RFC 9162 §2.1.4).",
            description: "Both roots and the proof; with the first root taken from a checkpoint kept outside the database, it proves the log was only appended to since.",
            parameters: [query("from", "The earlier size."), query("to", "The later size.")],
            schema: "ConsistencyProof", extra: [:])) { request in
            try consistency(request, context: context)
        }
    }

    // MARK: Handlers

    static func checkpoint(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        // Public checkpoints answer without a key (they reveal only the log's size).
        let reader = context.publicCheckpoints ? Reader.anybody : try Authentication.reader(of: request, context: context, at: nil)
        let text = request.pathParameters["position"] ?? ""
        var position: Int64?
        if text != "latest" {
            guard let p = Int64(text), p > 0 else { throw invalid("position is `latest` or a positive integer, not \(text.debugDescription)") }
            position = p
        }
        return try answer(CheckpointQuery(position: position, isPublic: context.publicCheckpoints), request, as: reader, context: context,
                          notFound: Problem(status: 404, code: "not_found",
                                            detail: text == "latest" ? "no checkpoint has been signed yet" : "no checkpoint at position \(text)"))
    }

    static func inclusion(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        let reader = try Authentication.reader(of: request, context: context, at: nil)
        let position = try integer(request, "position"), size = try integer(request, "size")
        return try answer(InclusionProofQuery(position: position, size: size, cache: context.merkleNodes), request, as: reader, context: context)
    }

    static func consistency(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        let reader = try Authentication.reader(of: request, context: context, at: nil)
        let from = try integer(request, "from"), to = try integer(request, "to")
        return try answer(ConsistencyProofQuery(from: from, to: to, cache: context.merkleNodes), request, as: reader, context: context)
    }

    // MARK: Support

    /// `query`'s answer as JSON; a key that is not an auditor's is a 403, a proof the tree
    /// cannot give yet a 503 to retry, a size past the log a 400.
    static func answer<Q: LedgerQuery>(_ query: Q, _ request: HTTPRequest, as reader: Reader, context: ServiceContext,
                                       notFound: Problem = Problem(status: 404, code: "not_found", detail: "no such proof")) throws -> HTTPResponse
    where Q.Answer: Encodable {
        do {
            return try context.answer(query, as: reader, atLeast: nil, since: request.receivedAt, notFound: { notFound }, forbidden: {
                Problem(status: 403, code: "forbidden", detail: "the log's proofs need an auditor key (`ledger admin key issue --auditor NAME`)")
            }) { .json($0, headers: ["Cache-Control": "no-store"]) }
        } catch let refusal as ProofRefusal {
            switch refusal {
            case .treeBehind(let detail): throw Problem(status: 503, code: "projection_behind", detail: detail, retryAfter: 1)
            case .invalid(let detail): throw invalid(detail)
            }
        }
    }

    static func integer(_ request: HTTPRequest, _ name: String) throws -> Int64 {
        guard let text = request.query(name) else { throw invalid("\(name) is required") }
        guard let value = Int64(text), value > 0, String(value) == text else { throw invalid("\(name) must be a positive integer, not \(text.debugDescription)") }
        return value
    }

    static func invalid(_ detail: String) -> Problem { Problem(status: 400, code: "invalid_parameter", detail: detail) }

    static func query(_ name: String, _ description: String) -> JSONValue {
        ["name": .string(name), "in": "query", "required": true, "schema": ["type": "integer", "minimum": 1], "description": .string(description)]
    }

    static func operation(id: String, summary: String, description: String, parameters: [JSONValue], schema: String,
                          extra: [String: JSONValue]) -> JSONValue {
        var responses: [String: JSONValue] = [
            "200": ["description": "OK.", "content": ["application/json": ["schema": ["$ref": .string("#/components/schemas/\(schema)")]]]],
            "400": OpenAPIOperations.problem("A missing or malformed parameter, or a size past the log."),
            "401": OpenAPIOperations.problem("Missing, unknown or revoked key."),
            "403": OpenAPIOperations.problem("Not an auditor key."),
            "503": OpenAPIOperations.problem("The Merkle tree has not reached that size yet; retry."),
        ]
        for (k, v) in extra { responses[k] = v }
        return ["operationId": .string(id), "summary": .string(summary), "description": .string(description),
                "tags": ["Log transparency"], "security": [["secretKey": []]], "parameters": .array(parameters),
                "responses": .object(responses)]
    }
}
