import LedgerDomain
import Postgres

/// The billing projection's payers, projects and keys, for the operator's `list` and
/// `show` commands. Each read runs in one snapshot so that a payer's projects and a
/// project's pool agree with each other; a `show` reads them beside the balance in the
/// snapshot of its own (`BillingSnapshot`), so that the figures printed together agree.
extension BillingReadModel {
    /// Every payer by id, or only `id`.
    public func payers(id: String? = nil, now: Timestamp) throws -> [BillingDirectory.Payer] {
        try snapshot(now: now) { try $0.payers(id: id) }
    }

    /// Every project by id, or only `id`, or only those `pool` funds now.
    public func projects(id: String? = nil, fundedBy pool: Pool? = nil, now: Timestamp) throws -> [BillingDirectory.Project] {
        try snapshot(now: now) { try $0.projects(id: id, fundedBy: pool) }
    }

    /// Every secret key, or only those of `principal`, in the order they were issued.
    public func keys(of principal: KeyPrincipal? = nil) throws -> [BillingDirectory.Key] {
        try connections.read { try BillingSnapshot.keys(of: principal, on: $0) }
    }

    /// The net of `account`'s journal entries of events up to `position` (J1: posted
    /// entries never change): what was posted to it right after that event.
    public func posted(account: String, through position: Int64) throws -> Millicredits {
        try connections.read { conn in
            Millicredits(try conn.query("""
                SELECT coalesce(sum(amount), 0)::text FROM proj_billing.journal WHERE account = $1 AND position <= $2
                """, [account, position])[0].requireInt128(0))
        }
    }

    /// The ids of a project's holds, for its timeline.
    public func holdIDs(project: String) throws -> [String] {
        try connections.read { conn in
            try conn.query("SELECT hold_id FROM proj_billing.holds WHERE project_id = $1 ORDER BY position", [project])
                .rows.map { try $0.requireString(0) }
        }
    }

    /// The months of `pool` that had usage or were closed, oldest first: where their close
    /// is recorded (`PoolMonth.stream`).
    public func months(of pool: Pool) throws -> [UTCMonth] {
        try self.connections.read { conn in
            try conn.query("SELECT month FROM proj_billing.pool_months WHERE pool = $1 ORDER BY month", [pool.description])
                .rows.compactMap { UTCMonth(try $0.requireString(0)) }
        }
    }
}

extension BillingSnapshot {
    /// Every payer by id, or only `id`, with the projects each funds at `now`.
    public func payers(id: String? = nil) throws -> [BillingDirectory.Payer] {
        let rows = try conn.query("""
            SELECT p.payer_id, p.name, coalesce(o.plan, 'none'), coalesce(o.allowance_storage_bytes, 0), p.position
            FROM proj_billing.payers p LEFT JOIN proj_billing.pools o ON o.pool = 'payer:' || p.payer_id
            WHERE $1::text IS NULL OR p.payer_id = $1 ORDER BY p.payer_id
            """, [id])
        let funded = try fundedProjects(pool: id.map { Pool.payer($0).description })
        return try rows.rows.map { r in
            let payer = try r.requireString(0)
            return BillingDirectory.Payer(id: payer, name: try r.requireString(1), plan: try r.requireString(2),
                                          allowanceStorageBytes: try r.requireInt64(3), position: try r.requireInt64(4),
                                          projects: funded[Pool.payer(payer).description, default: []])
        }
    }

    /// Every project by id, or only `id`, or only those `pool` funds at `now`.
    public func projects(id: String? = nil, fundedBy pool: Pool? = nil) throws -> [BillingDirectory.Project] {
        let rows = try conn.query("""
            SELECT project_id, name, position FROM proj_billing.projects
            WHERE ($1::text IS NULL OR project_id = $1)
              AND ($2::text IS NULL OR project_id IN (SELECT project_id FROM proj_billing.funding WHERE pool = $2))
            ORDER BY project_id
            """, [id, pool?.description])
        var projects: [BillingDirectory.Project] = []
        for r in rows.rows {
            let project = try r.requireString(0)
            // One read of the history serves both: the pool now by `FundingHistory`'s
            // rule (as `currentPool` has it) and the changes listed, oldest first.
            let funding = try fundingHistory(ofProject: project)
            guard let current = funding.pool(at: now) else { continue }
            if let pool, pool != current { continue }
            let history = funding.changes.map { change in
                BillingDirectory.Project.Funding(pool: change.pool.description, effectiveAt: change.effective.iso8601,
                                                 position: change.position)
            }
            projects.append(BillingDirectory.Project(id: project, name: try r.requireString(1), pool: current.description,
                                                     position: try r.requireInt64(2), funding: history))
        }
        return projects
    }

    /// Every secret key, or only those of `principal`, in the order they were issued.
    public func keys(of principal: KeyPrincipal? = nil) throws -> [BillingDirectory.Key] {
        try Self.keys(of: principal, on: conn)
    }

    static func keys(of principal: KeyPrincipal?, on conn: PostgresConnection) throws -> [BillingDirectory.Key] {
        try conn.query("""
            SELECT key_id, principal_kind, principal_id, prefix, revoked, position FROM proj_billing.keys
            WHERE $1::text IS NULL OR (principal_kind = $1 AND principal_id = $2) ORDER BY position
            """, [principal?.kind.rawValue, principal?.id]).rows.map { r in
            BillingDirectory.Key(keyID: try r.requireString(0), principal: "\(try r.requireString(1)):\(try r.requireString(2))",
                                 prefix: try r.requireString(3), revoked: r.bool(4) ?? false, position: try r.requireInt64(5))
        }
    }

    /// Projects by the pool funding them now, each resolved by the one rule
    /// (`currentPool`); only among those `pool` ever funded, when given.
    private func fundedProjects(pool: String?) throws -> [String: [String]] {
        var funded: [String: [String]] = [:]
        for r in try conn.query("""
            SELECT DISTINCT project_id FROM proj_billing.funding WHERE $1::text IS NULL OR pool = $1 ORDER BY project_id
            """, [pool]).rows {
            let project = try r.requireString(0)
            if let current = try currentPool(ofProject: project) { funded[current.description, default: []].append(project) }
        }
        return funded
    }
}
