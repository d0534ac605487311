import LedgerDomain
import Postgres

/// The organizations projection's organizations as records, for `ledger admin org
/// list|show` and for an organization's timeline.
extension OrganizationsReadModel {
    /// An organization as `org list` prints it.
    public struct Record: Sendable, Encodable, Equatable {
        public var id: String
        public var name: String
        public var resellerID: String?
        public var staffEducation: Bool?
        public var autoEducationDomain: String?
        public var admins: [String]
        public var position: Int64

        enum CodingKeys: String, CodingKey {
            case id, name, admins, position
            case resellerID = "reseller_id", staffEducation = "staff_education", autoEducationDomain = "auto_education_domain"
        }
    }

    /// Every organization by id, or only `id`.
    public func organizations(id: String? = nil) throws -> [Record] {
        try connections.read { conn in
            try conn.transaction(isolation: "REPEATABLE READ READ ONLY") { tx in
                var admins: [String: [String]] = [:]
                for r in try tx.query("""
                    SELECT org_id, person_id FROM proj_organizations.org_admins
                    WHERE $1::text IS NULL OR org_id = $1 ORDER BY org_id, person_id
                    """, [id]).rows {
                    admins[try r.requireString(0), default: []].append(try r.requireString(1))
                }
                return try tx.query("""
                    SELECT org_id, name, reseller_id, staff_education, auto_education_domain, position
                    FROM proj_organizations.orgs WHERE $1::text IS NULL OR org_id = $1 ORDER BY org_id
                    """, [id]).rows.map { r in
                    let org = try r.requireString(0)
                    return Record(id: org, name: try r.requireString(1), resellerID: r.string(2), staffEducation: r.bool(3),
                                  autoEducationDomain: r.string(4), admins: admins[org] ?? [], position: try r.requireInt64(5))
                }
            }
        }
    }

    /// The original transaction ids of an organization's App Store subscriptions.
    public func subscriptionIDs(org: String) throws -> [String] {
        try connections.read { conn in
            try conn.query("""
                SELECT original_transaction_id FROM proj_organizations.appstore_subscriptions WHERE org_id = $1
                ORDER BY position
                """, [org]).rows.map { try $0.requireString(0) }
        }
    }
}
