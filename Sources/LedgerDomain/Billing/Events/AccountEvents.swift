/// `payer.created`, on `payer-<id>`.
public struct PayerCreated: DomainEvent {
    public static let type = "payer.created"
    public var payerID: String
    public var name: String
    enum CodingKeys: String, CodingKey { case payerID = "payer_id", name }
    public init(payerID: String, name: String) { self.payerID = payerID; self.name = name }
}

/// `project.created`, on `project-<id>`.
public struct ProjectCreated: DomainEvent {
    public static let type = "project.created"
    public var projectID: String
    public var name: String
    public var funding: Funding
    enum CodingKeys: String, CodingKey { case projectID = "project_id", name, funding }
    public init(projectID: String, name: String, funding: Funding) {
        self.projectID = projectID
        self.name = name
        self.funding = funding
    }
}

/// `project.funding_changed`, on `project-<id>`: from `effective_at` on, the project's
/// usage is billed to the new pool.
public struct ProjectFundingChanged: DomainEvent {
    public static let type = "project.funding_changed"
    public var projectID: String
    public var funding: Funding
    public var effectiveAt: Timestamp
    enum CodingKeys: String, CodingKey { case projectID = "project_id", funding, effectiveAt = "effective_at" }
    public init(projectID: String, funding: Funding, effectiveAt: Timestamp) {
        self.projectID = projectID
        self.funding = funding
        self.effectiveAt = effectiveAt
    }
}

/// `plan.set`, on the pool owner's stream: the pool's plan (U3's `allowance.storage_bytes`).
public struct PlanSet: DomainEvent {
    public static let type = "plan.set"
    public var pool: Pool
    public var plan: String
    public var allowanceStorageBytes: Int64
    enum CodingKeys: String, CodingKey { case pool, plan, allowanceStorageBytes = "allowance_storage_bytes" }
    public init(pool: Pool, plan: String, allowanceStorageBytes: Int64) {
        self.pool = pool
        self.plan = plan
        self.allowanceStorageBytes = allowanceStorageBytes
    }
}

/// Who a secret key speaks for.
public struct KeyPrincipal: Sendable, Hashable, Codable {
    /// `auditor`: reads the log's checkpoints and proofs (`/v1/log/…`), nothing else.
    public enum Kind: String, Sendable, Hashable, Codable { case project, payer, service, auditor }
    public var kind: Kind
    public var id: String
    public init(kind: Kind, id: String) { self.kind = kind; self.id = id }
}

/// `key.issued`, on `key-<id>`. Only the key's SHA-256 is kept, never the key.
public struct KeyIssued: DomainEvent {
    public static let type = "key.issued"
    public var keyID: String
    public var principal: KeyPrincipal
    /// Lowercase hex SHA-256 of the key's text.
    public var sha256: String
    /// The key's first characters, to recognise it in listings.
    public var prefix: String
    enum CodingKeys: String, CodingKey { case keyID = "key_id", principal, sha256, prefix }
    public init(keyID: String, principal: KeyPrincipal, sha256: String, prefix: String) {
        self.keyID = keyID
        self.principal = principal
        self.sha256 = sha256
        self.prefix = prefix
    }
}

/// `key.revoked`, on `key-<id>`.
public struct KeyRevoked: DomainEvent {
    public static let type = "key.revoked"
    public var keyID: String
    enum CodingKeys: String, CodingKey { case keyID = "key_id" }
    public init(keyID: String) { self.keyID = keyID }
}
