import Foundation
import LedgerJSON

extension HTTPRequest {
    /// The body as JSON: every request body of the service is read here, by the project's
    /// own parser under `JSONParseOptions.request` (a repeated key, a number with a
    /// fraction or an exponent, and `\u0000` are refused), so that no two endpoints read
    /// the same bytes differently.
    ///
    /// Throws a `Problem`: 415 `unsupported_media_type` when a `Content-Type` other than
    /// `application/json` (or a `+json` type) is given (a missing one is accepted);
    /// 400 `duplicate_key` naming the key; 400 `malformed_json` saying where the body
    /// stops being JSON.
    public func jsonBody() throws(Problem) -> JSONValue {
        if let contentType = headers["Content-Type"], !Self.isJSONMediaType(contentType) {
            throw Problem(status: 415, code: "unsupported_media_type",
                          detail: "The body must be application/json, not \(RequestHeadRules.printable(contentType)).")
        }
        guard !body.isEmpty else {
            throw Problem(status: 400, code: "malformed_json", detail: "The body is empty; a JSON object is expected.")
        }
        do {
            return try JSONValue.parse(body, options: .request)
        } catch {
            if error.code == .duplicateKey {
                throw Problem(status: 400, code: "duplicate_key", detail: "The body is not accepted: \(error.message).")
            }
            throw Problem(status: 400, code: "malformed_json", detail: "The body is not valid JSON: \(error.message).")
        }
    }

    /// Decodes the body (read by `jsonBody()`) into `type`; 400 `invalid_body` naming the
    /// field (as a path such as `items[2].amount`) and what was expected there. Problems
    /// thrown by the type's own `init(from:)` pass through unchanged, so a type can
    /// validate its fields with its own codes.
    public func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try jsonBody()
        do {
            return try JSONValueDecoder().decode(T.self, from: value)
        } catch let error as JSONCodingError {
            let subject = error.path.isEmpty ? "The body" : "The field `\(error.path)`"
            throw Problem(status: 400, code: "invalid_body", detail: "\(subject) is not what is expected: \(error.reason).")
        }
    }

    /// `application/json`, or any `+json` structured syntax suffix, parameters ignored.
    public static func isJSONMediaType(_ contentType: String) -> Bool {
        let essence = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let type = essence.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }
}
