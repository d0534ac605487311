import Crypto
import EventStore
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices
import Projections

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
        if !context.publicCheckpoints { try requireAuditor(request, context: context) }
        let text = request.pathParameters["position"] ?? ""
        let model = MerkleReadModel(pool: context.pool)
        let found: MerkleReadModel.Checkpoint?
        if text == "latest" {
            found = try model.latestCheckpoint()
        } else {
            guard let position = Int64(text), position > 0 else { throw invalid("position is `latest` or a positive integer, not \(text.debugDescription)") }
            found = try model.checkpoint(at: position)
        }
        guard let found else {
            throw Problem(status: 404, code: "not_found", detail: text == "latest" ? "no checkpoint has been signed yet" : "no checkpoint at position \(text)")
        }
        return .json(TransparencyBodies.CheckpointBody(found), headers: ["Cache-Control": "no-store"])
    }

    static func inclusion(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        try requireAuditor(request, context: context)
        let position = try integer(request, "position"), size = try integer(request, "size")
        let proof = try proving(context) { try MerkleReadModel(pool: context.pool, cache: context.merkleNodes).inclusionProof(position: position, size: size) }
        return .json(TransparencyBodies.InclusionBody(proof), headers: ["Cache-Control": "no-store"])
    }

    static func consistency(_ request: HTTPRequest, context: ServiceContext) throws -> HTTPResponse {
        try requireAuditor(request, context: context)
        let from = try integer(request, "from"), to = try integer(request, "to")
        let proof = try proving(context) { try MerkleReadModel(pool: context.pool, cache: context.merkleNodes).consistencyProof(from: from, to: to) }
        return .json(TransparencyBodies.ConsistencyBody(proof), headers: ["Cache-Control": "no-store"])
    }

    // MARK: Support

    /// An auditor's key; any other valid key is a 403, no key a 401.
    static func requireAuditor(_ request: HTTPRequest, context: ServiceContext) throws {
        let principal = try Authentication.principal(of: request, context: context)
        guard principal.kind == .auditor else {
            throw Problem(status: 403, code: "forbidden", detail: "the log's proofs need an auditor key (`ledger admin key issue --auditor NAME`)")
        }
    }

    /// A read-model refusal as the surface answers it: a tree behind the log is a 503 to
    /// retry; a size past the log, or a position past the size, a 400.
    static func proving<T>(_ context: ServiceContext, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let refusal as MerkleReadModel.Refusal {
            switch refusal {
            case .notCreated:
                throw Problem(status: 503, code: "projection_behind", detail: refusal.description, retryAfter: 1)
            case .beyondTree(let size, _):
                let head = try LogReader(pool: context.pool).headPosition()
                guard size <= head else { throw invalid("the log holds \(head) events, not \(size)") }
                throw Problem(status: 503, code: "projection_behind", detail: refusal.description, retryAfter: 1)
            case .invalid(let what):
                throw invalid(what)
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
