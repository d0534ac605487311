import HTTP

/// The catalog surface's errors, in the seed's `Error` shape: `{"error": "…", "code": "…"}`
/// (docs/catalog.md), not problem details.
struct CatalogError: Error, Sendable, Encodable {
    var status: Int
    var error: String
    var code: String

    enum CodingKeys: String, CodingKey { case error, code }

    var response: HTTPResponse { .json(self, status: status) }

    /// Any problem in the seed's shape: its detail as `error`, its code as `code`.
    @Sendable static func render(_ problem: Problem) -> HTTPResponse {
        CatalogError(status: problem.status, error: problem.detail, code: problem.code).response
    }

    static func missingKey() -> CatalogError {
        CatalogError(status: 401, error: "Missing API key: send your publishable key in the X-ZeroSettle-Key header.", code: "missing_api_key")
    }
    static func invalidKey() -> CatalogError {
        CatalogError(status: 401, error: "Invalid API key: it is not a publishable key of any app.", code: "invalid_api_key")
    }
    static func revokedKey() -> CatalogError {
        CatalogError(status: 403, error: "This API key has been revoked.", code: "api_key_revoked")
    }
    static func disabledApp() -> CatalogError {
        CatalogError(status: 403, error: "This app is disabled.", code: "app_disabled")
    }
    static func badRequest(_ message: String, code: String = "invalid_request") -> CatalogError {
        CatalogError(status: 400, error: message, code: code)
    }
}
