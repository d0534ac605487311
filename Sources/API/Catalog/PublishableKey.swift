import Crypto
import HTTP
import LedgerDomain
import Projections

/// Who a request to the catalog surface comes from: the app of its `X-ZeroSettle-Key`.
struct PublishableKey: Sendable {
    var app: AppCatalog
    var mode: KeyMode

    static let header = "X-ZeroSettle-Key"

    /// 401 for a missing or unknown key, 403 for a revoked key or a disabled app.
    static func authenticate(_ request: HTTPRequest, _ snapshot: CatalogSnapshot) throws(CatalogError) -> PublishableKey {
        guard let text = request.headers[header], !text.isEmpty else { throw .missingKey() }
        guard KeyMode.allCases.contains(where: { text.hasPrefix($0.prefix) }), text.utf8.count <= 200 else { throw .invalidKey() }
        guard let key = snapshot.keys[Hex.encode(SHA256.hash(Array(text.utf8)))], let app = snapshot.apps[key.appID],
              text.hasPrefix(key.mode.prefix) else { throw .invalidKey() }
        if key.revoked { throw .revokedKey() }
        if !app.enabled { throw .disabledApp() }
        return PublishableKey(app: app, mode: key.mode)
    }
}
