import LedgerJSON

extension OpenAPIDocument {
    static var transparencySchemas: [String: JSONValue] {
        let hex: JSONValue = ["type": "string", "pattern": "^[0-9a-f]{64}$"]
        return [
            "LogCheckpoint": object([
                "position": ["type": "integer", "description": "The position of the `log.checkpoint` event itself."],
                "origin": ["type": "string"], "size": ["type": "integer", "description": "The tree covers positions 1 to size."],
                "root": hex, "head": hex, "time": ["type": "string", "format": "date-time"],
                "key_id": ["type": "string"], "public_key_pem": ["type": "string"],
                "signature": ["type": "string", "description": "Ed25519 signature of `text`, base64."],
                "text": ["type": "string", "description": "The signed bytes, exactly."],
            ], required: ["position", "origin", "size", "root", "head", "time", "key_id", "public_key_pem", "signature", "text"]),
            "InclusionProof": object([
                "position": ["type": "integer"], "leaf_index": ["type": "integer"], "tree_size": ["type": "integer"],
                "root": hex, "leaf_hash": ["type": ["string", "null"]],
                "path": ["type": "array", "items": hex, "description": "Nearest the leaf first."],
                "event": ["type": ["object", "null"], "description": "The event (null when archived): position, type, stream, prev_hash, hash, and canonical (base64), the bytes its chain hash covers after prev_hash."],
            ], required: ["position", "leaf_index", "tree_size", "root", "path", "event"]),
            "ConsistencyProof": object([
                "from": ["type": "integer"], "to": ["type": "integer"], "from_root": hex, "to_root": hex,
                "path": ["type": "array", "items": hex],
            ], required: ["from", "to", "from_root", "to_root", "path"]),
        ]
    }
}
