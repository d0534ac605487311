import EventStore
import LedgerDomain
import Postgres
import ProjectionEngine

/// One batch of the organizations fold, kept in memory and written once per table. It
/// needs nothing from the tables: every change is either a new row or one the SQL can
/// merge with the row already there (`coalesce` for what only the first event may set).
final class OrganizationsBatch {
    private var orgs = RowBuffer(columns: 4)
    /// What later events change on an organization; an org created in the batch starts
    /// from nothing, as the updates before its creation changed no row.
    private struct Patch {
        var accountToken: String?
        var reseller: String??
        var staffEducation: Bool?
        var autoEducationDomain: String?
    }
    private var patches: [String: Patch] = [:]
    private var patchOrder = OrderedKeys<String>()
    private struct AdminKey: Hashable { var org: String; var person: String }
    private var admins: [AdminKey: Bool] = [:]
    private var adminOrder = OrderedKeys<AdminKey>()
    private var planChanges = RowBuffer(columns: 5)
    private var audit = RowBuffer(columns: 6)
    private var subscriptions: [String: [any PostgresBindable]] = [:]
    private var subscriptionOrder = OrderedKeys<String>()
    private var changes = RowBuffer(columns: 16)
    /// Holders claimed for subscriptions made in earlier batches (original id, person).
    private var claims = RowBuffer(columns: 2)
    private var acknowledged: [String: [any PostgresBindable]] = [:]
    private var acknowledgedOrder = OrderedKeys<String>()
    /// Refund requests and their answers (`OrganizationsBatch+Consumption.swift`).
    var consumption = ConsumptionRows()

    private func patch(_ org: String, _ change: (inout Patch) -> Void) {
        patchOrder.insert(org)
        change(&patches[org, default: Patch()])
    }

    private func admin(_ org: String, _ person: String, present: Bool) {
        let key = AdminKey(org: org, person: person)
        adminOrder.insert(key)
        admins[key] = present
    }

    /// Every type `fold` reads: the projection's `eventTypes`.
    static let types: Set<String> = [
        OrganizationCreated.type, AccountTokenCreated.type, AdminDesignated.type, AdminRemoved.type, DelegatedToReseller.type,
        DelegationEnded.type, StaffPlanDecided.type, BillingPlanChanged.type, StaffEducationDecided.type,
        EducationEligibilityGranted.type, AppStoreTransactionRecorded.type, AppStoreSubscriptionClaimed.type,
        AppStoreSubscriptionEnded.type, AppStoreRenewalFailed.type, AppStorePriceIncreaseReported.type,
        AppStoreRenewalExtensionFailed.type, AppStoreConsumptionRequested.type, AppStoreConsumptionAnswered.type,
        AppStoreNotificationAcknowledged.type,
    ]

    func fold(_ event: RecordedEvent) throws {
        let p = event.position
        switch event.type {
        case OrganizationCreated.type:
            let e = try event.decode(OrganizationCreated.self)
            orgs.append([e.orgID, e.name, p, event.occurredAt.microseconds])
            patches[e.orgID] = nil
        case AccountTokenCreated.type:
            let e = try event.decode(AccountTokenCreated.self)
            patch(e.orgID) { $0.accountToken = $0.accountToken ?? e.accountToken.uuidString.lowercased() }
        case AdminDesignated.type:
            let e = try event.decode(AdminDesignated.self)
            admin(e.orgID, e.personID, present: true)
            auditEntry(event, e.orgID, "administrator \(e.personID) designated")
        case AdminRemoved.type:
            let e = try event.decode(AdminRemoved.self)
            admin(e.orgID, e.personID, present: false)
            auditEntry(event, e.orgID, "administrator \(e.personID) removed")
        case DelegatedToReseller.type:
            let e = try event.decode(DelegatedToReseller.self)
            patch(e.orgID) { $0.reseller = .some(e.resellerID) }
            auditEntry(event, e.orgID, "delegated to reseller \(e.resellerID)")
        case DelegationEnded.type:
            let e = try event.decode(DelegationEnded.self)
            patch(e.orgID) { $0.reseller = .some(nil) }
            auditEntry(event, e.orgID, "delegation ended")
        case StaffPlanDecided.type:
            let e = try event.decode(StaffPlanDecided.self)
            planChange(event, e.orgID, .staff, e.plan)
        case BillingPlanChanged.type:
            let e = try event.decode(BillingPlanChanged.self)
            planChange(event, e.orgID, .billing, e.plan)
        case StaffEducationDecided.type:
            let e = try event.decode(StaffEducationDecided.self)
            patch(e.orgID) { $0.staffEducation = e.eligible }
            auditEntry(event, e.orgID, "staff decided: education \(e.eligible ? "eligible" : "not eligible") (final)")
        case EducationEligibilityGranted.type:
            let e = try event.decode(EducationEligibilityGranted.self)
            patch(e.orgID) { $0.autoEducationDomain = $0.autoEducationDomain ?? e.domain }
            auditEntry(event, e.orgID, "education eligible: administrator \(e.personID) has a verified e-mail on the school domain \(e.domain)")
        case AppStoreTransactionRecorded.type:
            let e = try event.decode(AppStoreTransactionRecorded.self)
            // The first record of a subscription makes its row; later ones may only add the holder.
            subscriptionOrder.insert(e.originalTransactionID)
            if var row = subscriptions[e.originalTransactionID] {
                if row[2].postgresText == nil { row[2] = e.personID }
                subscriptions[e.originalTransactionID] = row
            } else {
                subscriptions[e.originalTransactionID] = [e.originalTransactionID, e.orgID, e.personID, e.environment, p]
            }
            // A transaction that had expired, or was revoked, when it was recorded changes no plan (T5).
            let countsForPlan = !e.expiredWhenRecorded && e.revocationDate == nil
            // `reason` holds how it came (`storekit` or the notification type: RENEWAL_EXTENDED extends the renewal date).
            changes.append([e.originalTransactionID, p, "transaction", e.transactionID, e.productID, e.plan.rawValue,
                            e.purchaseDate.microseconds, e.expiresDate?.microseconds, e.signedDate.microseconds, e.via, countsForPlan,
                            e.revocationDate?.microseconds, e.inAppOwnershipType, e.offerType.map(Int64.init), e.offerIdentifier,
                            e.offerDiscountType])
        case AppStoreSubscriptionClaimed.type:
            // The first holder stays: a claim only fills an empty one (as the recording did).
            let e = try event.decode(AppStoreSubscriptionClaimed.self)
            if var row = subscriptions[e.originalTransactionID] {
                if row[2].postgresText == nil { row[2] = e.personID }
                subscriptions[e.originalTransactionID] = row
            } else {
                claims.append([e.originalTransactionID, e.personID])
            }
            auditEntry(event, e.orgID, "App Store subscription \(e.originalTransactionID): administrator \(e.personID) presented its purchase through the app (its holder)")
        case AppStoreSubscriptionEnded.type:
            let e = try event.decode(AppStoreSubscriptionEnded.self)
            let none = PostgresNull()
            changes.append([e.originalTransactionID, p, "end", none, none, none, none, none, e.signedDate.microseconds, e.reason, true, none,
                            none, none, none, none])
            auditEntry(event, e.orgID, "App Store subscription \(e.originalTransactionID) \(e.ending.rawValue) (\(e.reason))")
        case AppStoreRenewalFailed.type:
            let e = try event.decode(AppStoreRenewalFailed.self)
            let none = PostgresNull()
            changes.append([e.originalTransactionID, p, "renewal_failed", none, none, none, none, e.gracePeriodExpiresDate?.microseconds,
                            e.signedDate.microseconds, "DID_FAIL_TO_RENEW", true, none, none, none, none, none])
            auditEntry(event, e.orgID, "App Store subscription \(e.originalTransactionID): Apple could not renew it ("
                       + (e.gracePeriodExpiresDate.map { "grace period until \($0.iso8601)" } ?? "billing retry") + ")")
        case AppStorePriceIncreaseReported.type:
            let e = try event.decode(AppStorePriceIncreaseReported.self)
            let none = PostgresNull()
            changes.append([e.originalTransactionID, p, "price_increase", none, none, none, none, none, e.signedDate.microseconds,
                            e.status.rawValue, true, none, none, none, none, none])
            auditEntry(event, e.orgID, "App Store subscription \(e.originalTransactionID): price increase \(e.status.rawValue)")
        case AppStoreRenewalExtensionFailed.type:
            let e = try event.decode(AppStoreRenewalExtensionFailed.self)
            let none = PostgresNull()
            changes.append([e.originalTransactionID, p, "renewal_extension_failed", none, none, none, none, none, e.signedDate.microseconds,
                            "RENEWAL_EXTENSION", true, none, none, none, none, none])
            auditEntry(event, e.orgID, "App Store subscription \(e.originalTransactionID): Apple could not extend its renewal date")
        case AppStoreConsumptionRequested.type:
            let e = try event.decode(AppStoreConsumptionRequested.self)
            consumption.requested(e, at: p)
            if let org = e.orgID {
                auditEntry(event, org, "App Store subscription \(e.originalTransactionID): refund request for transaction \(e.transactionID); Apple asks for consumption information by \(e.respondBy.iso8601)")
            }
        case AppStoreConsumptionAnswered.type:
            let e = try event.decode(AppStoreConsumptionAnswered.self)
            consumption.answered(e, at: event)
            if let org = e.orgID {
                auditEntry(event, org, "App Store subscription \(e.originalTransactionID): refund request for transaction \(e.transactionID) answered \(e.outcome.rawValue) (\(e.reason))")
            }
        case AppStoreNotificationAcknowledged.type:
            let e = try event.decode(AppStoreNotificationAcknowledged.self)
            if acknowledged[e.notificationUUID] == nil {
                acknowledgedOrder.insert(e.notificationUUID)
                acknowledged[e.notificationUUID] = [e.notificationUUID, e.notificationType, e.subtype, e.reason, p]
            }
        default:
            break
        }
    }

    private func planChange(_ event: RecordedEvent, _ org: String, _ source: PlanSource, _ plan: Plan?) {
        planChanges.append([org, source.rawValue, event.occurredAt.microseconds, event.position, plan?.rawValue])
        auditEntry(event, org, "\(source.rawValue) plan: \(plan?.rawValue ?? "removed")")
    }

    private func auditEntry(_ event: RecordedEvent, _ org: String, _ detail: String) {
        let actor = (try? event.metadata())??.actor.description ?? "unknown"
        audit.append([org, event.position, event.type, actor, detail, event.occurredAt.iso8601])
    }

    func write(to db: ProjectionContext) throws {
        try db.copy(into: "orgs", columns: ["org_id", "name", "position", "created_us"], rows: orgs)
        var patched = RowBuffer(columns: 6)
        for org in patchOrder.keys {
            guard let p = patches[org] else { continue }
            patched.append([org, p.accountToken, p.reseller != nil, p.reseller ?? nil, p.staffEducation, p.autoEducationDomain])
        }
        db.enqueue("""
            UPDATE orgs o SET account_token = coalesce(o.account_token, u.account_token),
                reseller_id = CASE WHEN u.reseller_set THEN u.reseller_id ELSE o.reseller_id END,
                staff_education = coalesce(u.staff_education, o.staff_education),
                auto_education_domain = coalesce(o.auto_education_domain, u.auto_education_domain)
            FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::boolean[], $6::text[])
                AS u (org_id, account_token, reseller_set, reseller_id, staff_education, auto_education_domain)
            WHERE o.org_id = u.org_id
            """, rows: patched)
        var added = RowBuffer(columns: 2), removed = RowBuffer(columns: 2)
        for key in adminOrder.keys {
            if admins[key] == true { added.append([key.org, key.person]) } else { removed.append([key.org, key.person]) }
        }
        db.enqueue("INSERT INTO org_admins (org_id, person_id) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING",
                   rows: added)
        db.enqueue("""
            DELETE FROM org_admins a USING unnest($1::text[], $2::text[]) AS u (org_id, person_id)
            WHERE a.org_id = u.org_id AND a.person_id = u.person_id
            """, rows: removed)
        try db.copy(into: "org_plan_changes", columns: ["org_id", "source", "at_us", "position", "plan"], rows: planChanges)
        try db.copy(into: "org_audit", columns: ["org_id", "position", "type", "actor", "detail", "occurred_at"], rows: audit)
        var subscriptionRows = RowBuffer(columns: 5)
        for id in subscriptionOrder.keys { subscriptionRows.append(subscriptions[id]!) }
        db.enqueue("""
            INSERT INTO appstore_subscriptions AS s (original_transaction_id, org_id, holder_person_id, environment, position)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
            ON CONFLICT (original_transaction_id) DO UPDATE
            SET holder_person_id = coalesce(s.holder_person_id, excluded.holder_person_id)
            """, rows: subscriptionRows)
        db.enqueue("""
            UPDATE appstore_subscriptions s SET holder_person_id = coalesce(s.holder_person_id, u.person_id)
            FROM unnest($1::text[], $2::text[]) AS u (original_transaction_id, person_id)
            WHERE s.original_transaction_id = u.original_transaction_id
            """, rows: claims)
        try db.copy(into: "appstore_changes", columns: ["original_transaction_id", "position", "kind", "transaction_id", "product_id",
                                                       "plan", "purchase_us", "expires_us", "signed_us", "reason", "counts_for_plan",
                                                       "revoked_us", "ownership", "offer_type", "offer_identifier", "offer_discount_type"],
                    rows: changes)
        var acknowledgedRows = RowBuffer(columns: 5)
        for id in acknowledgedOrder.keys { acknowledgedRows.append(acknowledged[id]!) }
        db.enqueue("""
            INSERT INTO appstore_acknowledged (notification_uuid, notification_type, subtype, reason, position)
            SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[]) ON CONFLICT DO NOTHING
            """, rows: acknowledgedRows)
        consumption.write(to: db)
    }
}
