import LedgerDomain

/// What `ledger admin payer|project|key list|show` print: the billing projection's
/// payers, projects and keys as records, never a key's secret or its hash.
public enum BillingDirectory {
    /// A payer and the projects its pool funds now.
    public struct Payer: Sendable, Encodable, Equatable {
        public var id: String
        public var name: String
        public var plan: String
        public var allowanceStorageBytes: Int64
        /// The position of `payer.created`.
        public var position: Int64
        /// Projects whose pool is this payer's at the time of the read.
        public var projects: [String]

        enum CodingKeys: String, CodingKey {
            case id, name, plan, position, projects
            case allowanceStorageBytes = "allowance_storage_bytes"
        }
    }

    /// A project, the pool funding it now, and its funding history.
    public struct Project: Sendable, Encodable, Equatable {
        public struct Funding: Sendable, Encodable, Equatable {
            public var pool: String
            /// When the change takes effect (RFC 3339, UTC).
            public var effectiveAt: String
            public var position: Int64
            enum CodingKeys: String, CodingKey { case pool, position, effectiveAt = "effective_at" }
        }

        public var id: String
        public var name: String
        /// `project:<id>` (self-paying) or `payer:<id>`.
        public var pool: String
        public var position: Int64
        public var funding: [Funding]
    }

    /// A secret key as the log knows it: its id, whom it speaks for and its printable
    /// prefix (the first 12 characters); the key itself is never stored.
    public struct Key: Sendable, Encodable, Equatable {
        public var keyID: String
        /// `project:<id>`, `payer:<id>` or `service:<name>`.
        public var principal: String
        public var prefix: String
        public var revoked: Bool
        public var position: Int64

        enum CodingKeys: String, CodingKey {
            case principal, prefix, revoked, position
            case keyID = "key_id"
        }
    }
}
