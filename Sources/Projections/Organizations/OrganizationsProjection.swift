import EventStore
import LedgerDomain
import LedgerJSON

/// Organizations, their administrators, delegation, education eligibility, plan changes
/// by source, and their App Store subscriptions (rules O, T, N).
///
/// It stores facts with their instants and never resolves them against a clock: which
/// plan is in force, and which change is still pending, is decided by the reads at the
/// time of the request (`PlanTimeline`).
public struct OrganizationsProjection: Projection {
    public let name = "organizations"
    public let version = 1
    public let tables = ["orgs", "org_admins", "org_plan_changes", "org_audit", "appstore_subscriptions",
                         "appstore_changes", "appstore_acknowledged"]

    public init() {}

    public var tablesSQL: [String] {
        [
            """
            CREATE TABLE orgs (org_id text PRIMARY KEY, name text NOT NULL, account_token text UNIQUE,
                reseller_id text, staff_education boolean, auto_education_domain text, position bigint NOT NULL)
            """,
            "CREATE TABLE org_admins (org_id text NOT NULL, person_id text NOT NULL, PRIMARY KEY (org_id, person_id))",
            """
            CREATE TABLE org_plan_changes (org_id text NOT NULL, source text NOT NULL, at_us bigint NOT NULL,
                position bigint NOT NULL, plan text, PRIMARY KEY (org_id, source, position))
            """,
            """
            CREATE TABLE org_audit (org_id text NOT NULL, position bigint NOT NULL, type text NOT NULL, actor text NOT NULL,
                detail text NOT NULL, occurred_at timestamptz NOT NULL, PRIMARY KEY (org_id, position))
            """,
            """
            CREATE TABLE appstore_subscriptions (original_transaction_id text PRIMARY KEY, org_id text NOT NULL,
                holder_person_id text, environment text NOT NULL, position bigint NOT NULL)
            """,
            "CREATE INDEX appstore_subscriptions_org_idx ON appstore_subscriptions (org_id)",
            """
            CREATE TABLE appstore_changes (original_transaction_id text NOT NULL, position bigint NOT NULL,
                kind text NOT NULL, transaction_id text, product_id text, plan text, purchase_us bigint,
                expires_us bigint, signed_us bigint NOT NULL, reason text, counts_for_plan boolean NOT NULL,
                PRIMARY KEY (original_transaction_id, position))
            """,
            """
            CREATE TABLE appstore_acknowledged (notification_uuid text PRIMARY KEY, notification_type text NOT NULL,
                subtype text, reason text NOT NULL, position bigint NOT NULL)
            """,
        ]
    }

    public func apply(_ event: RecordedEvent, in db: ProjectionContext) throws {
        let p = event.position
        switch event.type {
        case OrganizationCreated.type:
            let e = try event.decode(OrganizationCreated.self)
            db.enqueue("INSERT INTO orgs (org_id, name, position) VALUES ($1, $2, $3)", [e.orgID, e.name, p])
        case AccountTokenCreated.type:
            let e = try event.decode(AccountTokenCreated.self)
            db.enqueue("UPDATE orgs SET account_token = $2 WHERE org_id = $1 AND account_token IS NULL",
                       [e.orgID, e.accountToken.uuidString.lowercased()])
        case AdminDesignated.type:
            let e = try event.decode(AdminDesignated.self)
            db.enqueue("INSERT INTO org_admins (org_id, person_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [e.orgID, e.personID])
            try audit(event, e.orgID, "administrator \(e.personID) designated", db)
        case AdminRemoved.type:
            let e = try event.decode(AdminRemoved.self)
            db.enqueue("DELETE FROM org_admins WHERE org_id = $1 AND person_id = $2", [e.orgID, e.personID])
            try audit(event, e.orgID, "administrator \(e.personID) removed", db)
        case DelegatedToReseller.type:
            let e = try event.decode(DelegatedToReseller.self)
            db.enqueue("UPDATE orgs SET reseller_id = $2 WHERE org_id = $1", [e.orgID, e.resellerID])
            try audit(event, e.orgID, "delegated to reseller \(e.resellerID)", db)
        case DelegationEnded.type:
            let e = try event.decode(DelegationEnded.self)
            db.enqueue("UPDATE orgs SET reseller_id = NULL WHERE org_id = $1", [e.orgID])
            try audit(event, e.orgID, "delegation ended", db)
        case StaffPlanDecided.type:
            let e = try event.decode(StaffPlanDecided.self)
            try planChange(event, e.orgID, .staff, e.plan, db)
        case BillingPlanChanged.type:
            let e = try event.decode(BillingPlanChanged.self)
            try planChange(event, e.orgID, .billing, e.plan, db)
        case StaffEducationDecided.type:
            let e = try event.decode(StaffEducationDecided.self)
            db.enqueue("UPDATE orgs SET staff_education = $2 WHERE org_id = $1", [e.orgID, e.eligible])
            try audit(event, e.orgID, "staff decided: education \(e.eligible ? "eligible" : "not eligible") (final)", db)
        case EducationEligibilityGranted.type:
            let e = try event.decode(EducationEligibilityGranted.self)
            db.enqueue("UPDATE orgs SET auto_education_domain = $2 WHERE org_id = $1 AND auto_education_domain IS NULL",
                       [e.orgID, e.domain])
            try audit(event, e.orgID, "education eligible: administrator \(e.personID) has a verified e-mail on the school domain \(e.domain)", db)
        case AppStoreTransactionRecorded.type:
            let e = try event.decode(AppStoreTransactionRecorded.self)
            db.enqueue("""
                INSERT INTO appstore_subscriptions (original_transaction_id, org_id, holder_person_id, environment, position)
                VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (original_transaction_id) DO UPDATE
                SET holder_person_id = coalesce(appstore_subscriptions.holder_person_id, excluded.holder_person_id)
                """, [e.originalTransactionID, e.orgID, e.personID, e.environment, p])
            // A transaction that had expired, or was revoked, when it was recorded changes no plan (T5).
            let countsForPlan = !e.expiredWhenRecorded && e.revocationDate == nil
            db.enqueue("""
                INSERT INTO appstore_changes (original_transaction_id, position, kind, transaction_id, product_id, plan,
                    purchase_us, expires_us, signed_us, counts_for_plan)
                VALUES ($1, $2, 'transaction', $3, $4, $5, $6, $7, $8, $9)
                """, [e.originalTransactionID, p, e.transactionID, e.productID, e.plan.rawValue, e.purchaseDate.microseconds,
                      e.expiresDate?.microseconds, e.signedDate.microseconds, countsForPlan])
        case AppStoreSubscriptionEnded.type:
            let e = try event.decode(AppStoreSubscriptionEnded.self)
            db.enqueue("""
                INSERT INTO appstore_changes (original_transaction_id, position, kind, signed_us, reason, counts_for_plan)
                VALUES ($1, $2, 'end', $3, $4, true)
                """, [e.originalTransactionID, p, e.signedDate.microseconds, e.reason])
            try audit(event, e.orgID, "App Store subscription \(e.originalTransactionID) ended (\(e.reason))", db)
        case AppStoreNotificationAcknowledged.type:
            let e = try event.decode(AppStoreNotificationAcknowledged.self)
            db.enqueue("""
                INSERT INTO appstore_acknowledged (notification_uuid, notification_type, subtype, reason, position)
                VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING
                """, [e.notificationUUID, e.notificationType, e.subtype, e.reason, p])
        default:
            break
        }
    }

    private func planChange(_ event: RecordedEvent, _ org: String, _ source: PlanSource, _ plan: Plan?, _ db: ProjectionContext) throws {
        db.enqueue("INSERT INTO org_plan_changes (org_id, source, at_us, position, plan) VALUES ($1, $2, $3, $4, $5)",
                   [org, source.rawValue, event.occurredAt.microseconds, event.position, plan?.rawValue])
        try audit(event, org, "\(source.rawValue) plan: \(plan?.rawValue ?? "removed")", db)
    }

    private func audit(_ event: RecordedEvent, _ org: String, _ detail: String, _ db: ProjectionContext) throws {
        let actor = (try? event.metadata())??.actor.description ?? "unknown"
        db.enqueue("INSERT INTO org_audit (org_id, position, type, actor, detail, occurred_at) VALUES ($1, $2, $3, $4, $5, $6)",
                   [org, event.position, event.type, actor, detail, event.occurredAt.iso8601])
    }
}
