import LedgerDomain
import Postgres
import Projections

/// Whom the API's secret keys speak for, looked up by their SHA-256: once per request,
/// before anything waits, by one indexed statement of the billing read model that sees
/// both what the projection has folded and the key events it has not folded yet. A key
/// issued at the position a read waits for is found before the projector folds it; a
/// revocation counts from the moment it is in the log, on every API process, whether the
/// projector runs or not: nothing here remembers a key as valid.
public struct SecretKeys: Sendable {
    /// The primary's connections: a key is looked up where it is issued and revoked.
    public let connections: PostgresPool
    /// Where keys that verified are noted, for the server's admission (never read here).
    public let verified: VerifiedKeys

    public init(connections: PostgresPool, verified: VerifiedKeys) {
        self.connections = connections
        self.verified = verified
    }

    /// The principal of the key with SHA-256 `digest` (lowercase hex) as of `position`
    /// (nil: the log's head); nil for a key unknown there, or revoked by now.
    public func principal(sha256 digest: String, through position: Int64? = nil) throws -> KeyPrincipal? {
        guard let key = try BillingReadModel(connections: connections).key(sha256: digest, through: position), !key.revoked else { return nil }
        verified.note(digest)
        return key.principal
    }
}
