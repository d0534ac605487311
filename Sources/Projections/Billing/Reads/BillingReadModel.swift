import EventStore
import Foundation
import LedgerDomain
import Postgres
import ProjectionEngine

/// Every read of the billing projection's tables (`proj_billing`), for the API and the
/// operator commands: nothing else names them. Reads that must agree with each other run
/// in one snapshot (`snapshot`); the rest are single statements.
public struct BillingReadModel: Sendable {
    public let connections: PostgresPool
    static let schema = BillingProjection().schema

    public init(connections: PostgresPool) { self.connections = connections }

    /// Runs `body` in one repeatable-read, read-only transaction, so that a response is
    /// consistent with the position it names; `now` resolves pending changes (funding).
    public func snapshot<T>(now: Timestamp, _ body: (BillingSnapshot) throws -> T) throws -> T {
        try connections.read { conn in
            try conn.transaction(isolation: "REPEATABLE READ READ ONLY") { try body(BillingSnapshot(conn: $0, now: now)) }
        }
    }

    /// How far the projection has got, nil before the projector created it.
    public func progress() throws -> ProjectionSchema.Progress? {
        try connections.read { try ProjectionSchema.progress(Self.schema, on: $0) }
    }

    /// Whom a secret key speaks for, by its SHA-256, as of `position` (nil: the log's
    /// head), and whether it is revoked now: what the projection has folded, and the key
    /// events of the log it has not folded yet (`events_key_events_idx`, migration 0010),
    /// in one statement and so one snapshot. A key issued a moment ago is found before the
    /// projector folds it, and a revocation counts as soon as it is in the log.
    public func key(sha256: String, through position: Int64? = nil) throws -> (principal: KeyPrincipal, revoked: Bool)? {
        let rows = try connections.read { conn in
            try conn.query(Self.keyStatement, [sha256, position ?? Int64.max])
        }
        guard rows.rowCount >= 1, let kind = KeyPrincipal.Kind(rawValue: try rows[0].requireString(0)) else { return nil }
        return (KeyPrincipal(kind: kind, id: try rows[0].requireString(1)), rows[0].bool(2) ?? true)
    }

    /// The key by its SHA-256 ($1) as of position $2: the folded row, else its `key.issued`
    /// between the projection's position and $2; revoked if the row says so or a
    /// `key.revoked` of its id lies anywhere past the projection's position. A revocation
    /// is not bounded by $2: it holds from the moment it is in the log, whatever position
    /// a read asks for (an old `min_position` must not revive a revoked key). The types are
    /// literals, so that the planner proves the partial index's predicate from them
    /// whatever the plan.
    static let keyStatement = """
        WITH cp AS (SELECT position FROM proj_billing._checkpoint),
        folded AS (
            SELECT key_id, principal_kind, principal_id, revoked FROM proj_billing.keys WHERE sha256 = $1),
        issued AS (
            SELECT e.data->>'key_id' AS key_id, e.data->'principal'->>'kind' AS principal_kind,
                   e.data->'principal'->>'id' AS principal_id, false AS revoked
            FROM events e
            WHERE e.type = 'key.issued'
              AND e.position > (SELECT position FROM cp) AND e.position <= $2
              AND e.data->>'sha256' = $1 AND NOT EXISTS (SELECT 1 FROM folded)
            ORDER BY e.position LIMIT 1),
        found AS (SELECT * FROM folded UNION ALL SELECT * FROM issued)
        SELECT found.principal_kind, found.principal_id,
               found.revoked OR EXISTS (
                   SELECT 1 FROM events r
                   WHERE r.type = 'key.revoked'
                     AND r.position > (SELECT position FROM cp)
                     AND r.data->>'key_id' = found.key_id)
        FROM found
        """

    /// What the account deciders need to judge `pool` as a pool: its owner and its pool row.
    public func accountsState(of pool: Pool) throws -> AccountsDecider.State {
        switch pool {
        case .payer(let id): return try accountsState(payers: [id], pools: [pool])
        case .project(let id): return try accountsState(projects: [id], pools: [pool])
        }
    }

    /// The state the account deciders need about the payers, projects and pools named.
    public func accountsState(payers: [String] = [], projects: [String] = [], pools: [Pool] = []) throws -> AccountsDecider.State {
        try connections.read { conn in
            var state = AccountsDecider.State()
            if !payers.isEmpty {
                for row in try conn.query("SELECT payer_id FROM proj_billing.payers WHERE payer_id = ANY($1::text[])",
                                          [PostgresTextArray(payers)]).rows {
                    state.payers.insert(try row.requireString(0))
                }
            }
            if !projects.isEmpty {
                for row in try conn.query("SELECT project_id FROM proj_billing.projects WHERE project_id = ANY($1::text[])",
                                          [PostgresTextArray(projects)]).rows {
                    state.projects.insert(try row.requireString(0))
                }
            }
            if !pools.isEmpty {
                for row in try conn.query("SELECT pool FROM proj_billing.pools WHERE pool = ANY($1::text[])",
                                          [PostgresTextArray(pools.map(\.description))]).rows {
                    if let pool = Pool(try row.requireString(0)) { state.knownPools.insert(pool) }
                }
            }
            return state
        }
    }

    /// What the usage decider needs about `projects`: their funding, and which of their
    /// pools' months are no longer open.
    public func usageState(projects: [String]) throws -> UsageState {
        guard !projects.isEmpty else { return UsageState(funding: [:], closedMonths: []) }
        return try connections.read { conn in
            let funding = try Self.fundingHistories(of: projects, on: conn)
            let pools = Set(funding.values.flatMap { $0.changes.map(\.pool.description) })
            var closed: Set<PoolMonth> = []
            if !pools.isEmpty {
                for row in try conn.query("""
                    SELECT pool, month FROM proj_billing.pool_months WHERE status <> $2 AND pool = ANY($1::text[])
                    """, [PostgresTextArray(Array(pools)), MonthStatus.open.rawValue]).rows {
                    if let pool = Pool(try row.requireString(0)), let month = UTCMonth(try row.requireString(1)) {
                        closed.insert(PoolMonth(pool, month))
                    }
                }
            }
            return UsageState(funding: funding, closedMonths: closed)
        }
    }

    /// The funding histories of `projects`, in one statement: the one read of `funding`
    /// for the read side (the usage decider's state and `BillingSnapshot.currentPool`),
    /// so that which pool funds a project when is left to `FundingHistory` alone. A
    /// project without funding has no entry.
    static func fundingHistories(of projects: [String], on conn: PostgresConnection) throws -> [String: FundingHistory] {
        var changes: [String: [FundingHistory.Change]] = [:]
        for row in try conn.query("""
            SELECT project_id, effective_us, position, pool FROM proj_billing.funding WHERE project_id = ANY($1::text[])
            """, [PostgresTextArray(projects)]).rows {
            changes[try row.requireString(0), default: []].append(try row.requireFundingChange(from: 1))
        }
        return changes.mapValues(FundingHistory.init)
    }

    /// The pool funding a project at `now`.
    public func currentPool(ofProject id: String, now: Timestamp) throws -> Pool? {
        try snapshot(now: now) { try $0.currentPool(ofProject: id) }
    }

    /// A journal entry, for a correction of it.
    public func entry(_ id: JournalEntryID) throws -> JournalEntryRef? {
        try connections.read { conn in
            let rows = try conn.query("""
                SELECT account, pool, project_id, amount::text, kind FROM proj_billing.journal WHERE entry_id = $1 ORDER BY account
                """, [id.description])
            guard rows.rowCount > 0, let p = Pool(try rows[0].requireString(1)) else { return nil }
            // A correction has a row per account it was posted to: each counts once.
            let corrected = try conn.query("""
                SELECT coalesce(sum(amount), 0)::text FROM (SELECT DISTINCT correction_id, amount FROM proj_billing.corrections
                WHERE entry_id = $1) c
                """, [id.description])[0].requireInt128(0)
            return JournalEntryRef(id: id, accounts: try rows.rows.map { try $0.requireString(0) }, pool: p,
                                   projectID: rows[0].string(2), amount: Millicredits(try rows[0].requireInt128(3)),
                                   kind: try rows[0].requireString(4), corrected: Millicredits(corrected))
        }
    }

    /// A pool-month's status, nil when it has no usage yet.
    public func monthStatus(_ month: PoolMonth) throws -> MonthStatus? {
        try connections.read { conn in
            let rows = try conn.query("SELECT status FROM proj_billing.pool_months WHERE pool = $1 AND month = $2",
                                      [month.pool.description, month.month.description])
            return rows.rowCount == 0 ? nil : try rows[0].requireMonthStatus(0)
        }
    }

    /// The charges of a pool-month that is `closing`: exactly what the projection folded
    /// before `usage.month_closing`, priced with the storage price and allowance recorded
    /// then; nil when it is not closing.
    public func closingMonth(_ month: PoolMonth) throws -> ClosingMonth? {
        try snapshot(now: .minimum) { snapshot in
            guard let pm = try snapshot.poolMonth(month.pool, month.month.description), pm.status == .closing else { return nil }
            return ClosingMonth(allowanceBytes: pm.allowanceBytes, storagePrice: pm.storagePrice,
                                charges: pm.charges.values.sorted { $0.projectID < $1.projectID })
        }
    }

    /// The corrections `filter` selects across every account, oldest first, each once per
    /// account it was posted to (`ledger audit corrections`).
    public func corrections(_ filter: CorrectionFilter = CorrectionFilter()) throws -> [CorrectionRecord] {
        try connections.read { conn in
            try conn.query("""
                SELECT account, correction_id, entry_id, amount::text, reason, actor,
                       to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), position
                FROM proj_billing.corrections
                WHERE ($1::text IS NULL OR account = $1)
                  AND ($2::text IS NULL OR actor = $2 OR actor = 'operator:' || $2)
                  AND ($3::bigint IS NULL OR occurred_at >= to_timestamp($3::numeric / 1000000))
                  AND ($4::bigint IS NULL OR occurred_at < to_timestamp($4::numeric / 1000000))
                ORDER BY position, account
                """, [filter.account, filter.actor, filter.since?.microseconds, filter.until?.microseconds]).rows.map { r in
                CorrectionRecord(account: try r.requireString(0), correctionID: try r.requireString(1), corrects: try r.requireString(2),
                                 amount: Millicredits(try r.requireInt128(3)), reason: try r.requireString(4),
                                 actor: try r.requireString(5), at: try r.requireString(6), position: try r.requireInt64(7))
            }
        }
    }
}
