import LedgerDomain
import Postgres
import Projections

/// Whom the API's secret keys speak for, looked up by their SHA-256: once per request,
/// before anything waits, by one indexed statement of the billing read model that sees
/// both what the projection has folded and the key events it has not folded yet. A key
/// issued at the position a read waits for is found before the projector folds it; a
/// revocation counts from the moment it is in the log.
public struct SecretKeys: Sendable {
    /// The primary's connections: a key is looked up where it is issued and revoked.
    public let connections: PostgresPool
    /// Keys found valid in the last moments.
    public let cache: KeyCache

    public init(connections: PostgresPool, cache: KeyCache) {
        self.connections = connections
        self.cache = cache
    }

    /// The principal of the key with SHA-256 `digest` (lowercase hex) as of `position`
    /// (nil: the log's head); nil for a key unknown there or revoked.
    public func principal(sha256 digest: String, through position: Int64? = nil) throws -> KeyPrincipal? {
        if let cached = cache.lookup(digest) { return cached }
        guard let key = try BillingReadModel(connections: connections).key(sha256: digest, through: position), !key.revoked else { return nil }
        cache.store(digest, key.principal)
        return key.principal
    }
}
