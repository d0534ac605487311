import LedgerJSON

/// Pieces shared by the operations of the OpenAPI document.
enum OpenAPIOperations {
    static func problem(_ description: String) -> JSONValue {
        ["description": .string(description),
         "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]]]
    }

    static let minPosition: JSONValue = [
        "name": "min_position", "in": "query", "schema": ["type": "integer", "minimum": 0],
        "description": "Read-your-writes: wait (at most 5 s) until the projections have applied this log position; 503 projection_behind otherwise.",
    ]

    static func billing(id: String, summary: String, description: String, parameters: [JSONValue], schema: String,
                        extraResponses: [String: JSONValue] = [:]) -> JSONValue {
        var responses: [String: JSONValue] = [
            "200": ["description": "OK.", "content": ["application/json": ["schema": ["$ref": .string("#/components/schemas/\(schema)")]]]],
            "401": problem("Missing, unknown or revoked key."),
            "404": problem("No such account for this key (other accounts are never revealed)."),
            "503": problem("min_position not reached in time."),
        ]
        for (k, v) in extraResponses { responses[k] = v }
        return ["operationId": .string(id), "summary": .string(summary), "description": .string(description),
                "tags": ["Billing"], "security": [["secretKey": []]], "parameters": .array(parameters),
                "responses": .object(responses)]
    }
}
