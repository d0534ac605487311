import Foundation

extension HTTPRequest {
    /// Decodes the body as JSON into `type`.
    ///
    /// Throws a `Problem`:
    /// - 415 `unsupported_media_type` when a `Content-Type` other than `application/json`
    ///   (or a `+json` type) is given; a missing one is accepted;
    /// - 400 `malformed_json` when the body is not JSON, saying where it stops being JSON;
    /// - 400 `invalid_body` when it is JSON of the wrong shape, naming the field (as a
    ///   path such as `items[2].amount`) and what was expected there.
    ///
    /// Problems thrown by the type's own `init(from:)` pass through unchanged, so a type can
    /// validate its fields with its own codes.
    public func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        if let contentType = headers["Content-Type"], !Self.isJSONMediaType(contentType) {
            throw Problem(
                status: 415, code: "unsupported_media_type",
                detail: "The body must be application/json, not \(contentType).")
        }
        guard String(validating: body, as: UTF8.self) != nil else {
            throw Problem(status: 400, code: "malformed_json", detail: "The body is not valid JSON: it is not UTF-8 text.")
        }
        if let failure = JSONSyntaxCheck.firstError(in: body) {
            throw Problem(status: 400, code: "malformed_json", detail: "The body is not valid JSON: \(failure.message).")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let error as DecodingError {
            throw Problem(status: 400, code: "invalid_body", detail: Self.explain(error))
        }
    }

    /// `application/json`, or any `+json` structured syntax suffix, parameters ignored.
    public static func isJSONMediaType(_ contentType: String) -> Bool {
        let essence = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let type = essence.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    /// One sentence naming the field and what was wrong with it.
    static func explain(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "\(subject(context.codingPath + [key])) is required but missing."
        case .valueNotFound(let type, let context):
            return "\(subject(context.codingPath)) must be \(expected(type)), not null."
        case .typeMismatch(let type, let context):
            return "\(subject(context.codingPath)) must be \(expected(type))."
        case .dataCorrupted(let context):
            // The syntax was checked first, so this is a value the type refused (or, on
            // Linux, a number that does not fit the field's numeric type).
            if context.codingPath.isEmpty {
                return "The body has a value that does not fit the expected type (for example a fraction or an out-of-range number where an integer is expected)."
            }
            return "\(subject(context.codingPath)) is invalid: \(context.debugDescription)"
        @unknown default:
            return "The body does not have the expected shape."
        }
    }

    /// "The field `items[2].amount`", or "The body" for the document itself.
    static func subject(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "The body" : "The field `\(fieldPath(path))`"
    }

    /// `items[2].amount`.
    static func fieldPath(_ path: [any CodingKey]) -> String {
        var out = ""
        for key in path {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return out
    }

    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type, is Int8.Type,
            is UInt.Type, is UInt64.Type, is UInt32.Type, is UInt16.Type, is UInt8.Type:
            return "an integer"
        case is Double.Type, is Float.Type, is Decimal.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<") { return "an array" }
            if name.hasPrefix("Dictionary<") { return "an object" }
            return "a value of type \(name)"
        }
    }
}
