import HTTP
import LedgerDomain
import LedgerServices

/// Who a request to the catalog surface comes from: the app of its `X-ZeroSettle-Key`.
struct PublishableKey: Sendable {
    var app: AppCatalog
    var mode: KeyMode

    static let header = "X-ZeroSettle-Key"

    /// 401 for a missing or unknown key, 403 for a revoked key or a disabled app.
    static func authenticate(_ request: HTTPRequest, _ catalog: CatalogService) throws -> PublishableKey {
        guard let text = request.headers[header], !text.isEmpty else { throw CatalogError.missingKey() }
        switch try catalog.authenticate(publishableKey: text) {
        case .valid(let app, let mode): return PublishableKey(app: app, mode: mode)
        case .unknown: throw CatalogError.invalidKey()
        case .revoked: throw CatalogError.revokedKey()
        case .disabledApp: throw CatalogError.disabledApp()
        }
    }
}
