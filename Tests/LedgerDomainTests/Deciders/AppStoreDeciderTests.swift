import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// The App Store rules (O, T, N) as the deciders and the offer enforce them, with no
/// database and no signature: the verifier's checks are the AppStore module's tests.
@Suite("App Store deciders (O, T, N)", .bounded)
struct AppStoreDeciderTests {
    static let now = Timestamp(iso8601: "2026-11-15T12:00:00Z")!
    static let token = UUID(uuidString: "6f0b1a10-1e0c-4a3d-9d43-3d9c2b1f7a01")!
    static let products = AppStoreProducts([.plus: "p.plus", .education: "p.edu", .premium: "p.premium"])
    static let domains = SchoolDomains(suffixes: ["k12.ca.us"])

    static func org(admins: Set<String> = ["ana"], reseller: String? = nil, staffEducation: Bool? = nil, autoDomain: String? = nil,
                    staff: [PlanTimeline.Change] = [], subscriptions: [OrganizationPlans.Subscription] = []) -> OrganizationSnapshot {
        OrganizationSnapshot(id: "org1", accountToken: token, resellerID: reseller, staffEducation: staffEducation,
                             autoEducationDomain: autoDomain, admins: admins,
                             plans: OrganizationPlans(staff: staff, billing: [], subscriptions: subscriptions), position: 7, environments: [:])
    }

    static func reader(_ person: String = "ana", org: String? = "org1", email: String? = nil, verified: Bool = false,
                       staff: Bool = false, reseller: String? = nil) -> AppStoreReader {
        AppStoreReader(personID: person, activeOrg: org, email: email, emailVerified: verified, isStaff: staff, resellerID: reseller)
    }

    static func transaction(_ product: String = "p.plus", id: String = "2000000001", original: String = "2000000000",
                            token: UUID? = token, expires: String? = "2026-12-15T00:00:00Z") -> AppStoreTransactionFacts {
        AppStoreTransactionFacts(transactionID: id, originalTransactionID: original, productID: product,
                                 purchaseDate: Timestamp(iso8601: "2026-11-15T11:00:00Z")!, expiresDate: expires.flatMap { Timestamp(iso8601: $0) },
                                 revocationDate: nil, signedDate: Timestamp(iso8601: "2026-11-15T11:00:01Z")!, environment: "Sandbox",
                                 appAccountToken: token)
    }

    /// `recorded`: the transaction is in the subscription's stream already, with `holder`.
    static func record(_ t: AppStoreTransactionFacts = transaction(), org: OrganizationSnapshot = org(), reader: AppStoreReader = reader(),
                       recorded: Bool = false, holder: String? = "ana") throws(Refusal) -> Decision {
        let known = recorded ? AppStoreSubscriptionLog(transactions: [ExternalID.value(t.transactionID)], holder: holder) : AppStoreSubscriptionLog()
        return try AppStoreDecider.recordTransaction(t, org: org, reader: reader, known: known, products: products,
                                                     domains: domains, now: now)
    }

    static func refusal(_ body: () throws -> Decision) -> Refusal.Code? {
        do { _ = try body(); return nil } catch { return (error as? Refusal)?.code }
    }

    @Test("O1, O2: administrators of the active organization act; staff and its reseller's administrators only look")
    func roles() {
        let org = Self.org(reseller: "r1")
        #expect(Self.reader().role(in: org) == .administrator)
        #expect(Self.reader(org: "other").role(in: org) == nil)
        #expect(Self.reader("zed", staff: true).role(in: org) == .viewer)
        #expect(Self.reader("rita", org: nil, reseller: "r1").role(in: org) == .viewer)
        #expect(Self.reader("zed").role(in: org) == nil)
    }

    @Test("O3, O5, O6, O11: who can buy what, and the token they see")
    func offer() {
        let org = Self.org()
        let admin = AppStoreOffer(org, reader: Self.reader(), role: .administrator,
                                  education: EducationEligibility(org, reader: Self.reader(), role: .administrator, domains: Self.domains),
                                  products: Self.products, now: Self.now)
        #expect(admin.products.map(\.plan) == [.plus, .premium])   // O6: no education without eligibility
        #expect(admin.canPurchase && admin.accountToken == Self.token.uuidString.lowercased())
        let viewer = AppStoreOffer(org, reader: Self.reader("zed", staff: true), role: .viewer,
                                   education: EducationEligibility(org, reader: Self.reader("zed", staff: true), role: .viewer, domains: Self.domains),
                                   products: Self.products, now: Self.now)
        #expect(viewer.products.isEmpty && !viewer.canPurchase && viewer.accountToken == AppStoreOffer.zeroToken)   // O2, O5, O11
        let delegated = Self.org(reseller: "r1")
        #expect(AppStoreOffer(delegated, reader: Self.reader(), role: .administrator,
                              education: EducationEligibility(delegated, reader: Self.reader(), role: .administrator, domains: Self.domains),
                              products: Self.products, now: Self.now).products.isEmpty)   // O3
    }

    @Test("O7–O9: a verified school e-mail makes an administrator's organization eligible once; staff's word is final")
    func education() {
        let school = Self.reader(email: "ana@district.k12.ca.us", verified: true)
        let grant = EducationEligibility(Self.org(), reader: school, role: .administrator, domains: Self.domains)
        #expect(grant.eligible && grant.source == "school_email")
        #expect(grant.grant?.idempotencyKey == "education-auto:org1")
        #expect(EducationEligibility(Self.org(), reader: Self.reader(email: "ana@district.k12.ca.us", verified: false), role: .administrator,
                                     domains: Self.domains).eligible == false)
        #expect(EducationEligibility(Self.org(autoDomain: "k12.ca.us"), reader: school, role: .administrator, domains: Self.domains).grant == nil)
        let refused = EducationEligibility(Self.org(staffEducation: false), reader: school, role: .administrator, domains: Self.domains)
        #expect(!refused.eligible && refused.grant == nil)   // O9
    }

    @Test("T7: every refusal has its code, and a refusal carries no event at all")
    func transactionRefusals() {
        #expect(Self.refusal { try Self.record(reader: Self.reader(org: "other")) } == .notFound)
        #expect(Self.refusal { try Self.record(reader: Self.reader("zed", staff: true)) } == .forbidden)
        #expect(Self.refusal { try Self.record(Self.transaction(token: UUID())) } == .appStoreAccountMismatch)
        #expect(Self.refusal { try Self.record(Self.transaction("p.coins")) } == .appStoreTransactionInvalid)
        #expect(Self.refusal { try Self.record(org: Self.org(reseller: "r1")) } == .billedByReseller)
        #expect(Self.refusal { try Self.record(Self.transaction("p.edu")) } == .educationNotEligible)
        // O10: premium from staff blocks a new App Store plus; the school e-mail's grant is not made either.
        let staffPremium = Self.org(staff: [PlanTimeline.Change(at: Timestamp(iso8601: "2026-01-01T00:00:00Z")!, plan: .premium)])
        #expect(Self.refusal { try Self.record(org: staffPremium, reader: Self.reader(email: "ana@x.k12.ca.us", verified: true)) }
                == .appStorePlanConflict)
    }

    @Test("T1, O8: the transaction is recorded with the grant it makes, in one append; T5: again, without the checks")
    func transactionRecorded() throws {
        let decision = try Self.record(Self.transaction("p.edu"), reader: Self.reader(email: "ana@x.k12.ca.us", verified: true))
        #expect(decision.events.map(\.type) == [EducationEligibilityGranted.type, AppStoreTransactionRecorded.type])
        #expect(decision.events[1].stream == "appstore-sub-2000000000")
        #expect(decision.events[1].idempotencyKey == "appstore-tx:2000000001")
        // T5: a transaction already recorded changes nothing: nothing is appended, even if a check would now refuse it.
        #expect(try Self.record(org: Self.org(reseller: "r1"), recorded: true).events.isEmpty)
        // O10, T5: recorded first by a notification, which names nobody, the
        // transaction presented by its buyer records who holds it, once; then nothing more.
        let claim = try Self.record(org: Self.org(reseller: "r1"), recorded: true, holder: nil)
        #expect(claim.events.map(\.type) == [AppStoreSubscriptionClaimed.type])
        #expect(claim.events[0].idempotencyKey == "appstore-holder:2000000000" && claim.events[0].stream == "appstore-sub-2000000000")
        #expect(try claim.events[0].decode(AppStoreSubscriptionClaimed.self).personID == "ana")
        #expect(try Self.record(recorded: true, holder: "bo").events.isEmpty, "a holder already recorded stays")
        // Only an administrator of the organization, with its token, may claim.
        #expect(Self.refusal { try Self.record(reader: Self.reader(org: "other"), recorded: true, holder: nil) } == .notFound)
        #expect(Self.refusal { try Self.record(Self.transaction(token: UUID()), recorded: true, holder: nil) } == .appStoreAccountMismatch)
        // T5: an expired transaction is recorded, and changes no plan.
        let expired = try Self.record(Self.transaction(expires: "2026-11-01T00:00:00Z")).events[0].decode(AppStoreTransactionRecorded.self)
        #expect(expired.expiredWhenRecorded)
    }

    @Test("anything Apple signs can be stored: ids that do not fit a stream name or jsonb are named by digest",
          arguments: ["tx with space", "../../etc", "ünïcödé", String(repeating: "9", count: 300), "nul\u{0}inside", "sha256=forged"])
    func storableIDs(_ id: String) throws {
        let decision = try Self.record(Self.transaction(id: id, original: id))
        let event = decision.events[0]
        #expect(event.stream.hasPrefix("appstore-sub-"))
        #expect(event.stream.utf8.count <= 200 && event.stream.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f })
        #expect(event.idempotencyKey!.utf8.count <= 200 && event.idempotencyKey!.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f })
        let recorded = try event.decode(AppStoreTransactionRecorded.self)
        #expect(!recorded.transactionID.unicodeScalars.contains("\u{0}"))
        // Injective: the digest of one id is never another id as written.
        #expect(ExternalID.value(id) != ExternalID.value(id + "x"))
        #expect(ExternalID.key("sha256=" + String(repeating: "a", count: 64)) != "sha256=" + String(repeating: "a", count: 64))
    }

    static func notification(_ type: String, product: String = "p.plus", environment: String = "Sandbox",
                             transaction: Bool = true) -> AppStoreDecider.Notification {
        AppStoreDecider.Notification(notificationUUID: "n-1", type: type, subtype: nil, signedDate: now, environment: environment,
                                     transaction: transaction ? Self.transaction(product) : nil)
    }

    @Test("N3, N4, N6: what each notification changes, deduplicated on its UUID; N7: another environment's is refused")
    func notifications() throws {
        func outcome(_ n: AppStoreDecider.Notification, org: String? = "org1", path: String = "sandbox") throws -> String {
            try AppStoreDecider.notification(n, receivedAt: path, orgID: org, products: Self.products).outcome
        }
        #expect(try outcome(Self.notification("DID_RENEW")) == "applied")
        #expect(try outcome(Self.notification("EXPIRED")) == "expired")
        #expect(try outcome(Self.notification("TEST")).hasPrefix("ignored"))
        #expect(try outcome(Self.notification("CONSUMPTION_REQUEST")) == "consumption_requested", "recorded to be answered (ConsumptionDeciderTests)")
        #expect(try outcome(Self.notification("DID_RENEW", product: "p.coins")).hasPrefix("ignored"))
        #expect(try outcome(Self.notification("DID_RENEW"), org: nil).hasPrefix("ignored"))
        #expect(try outcome(Self.notification("SUBSCRIBED", transaction: false)).hasPrefix("ignored"))
        let decided = try AppStoreDecider.notification(Self.notification("DID_RENEW"), receivedAt: "sandbox", orgID: "org1", products: Self.products)
        #expect(decided.decision.idempotencyKey == "apple-notification:n-1")
        #expect(throws: Refusal.self) {
            try AppStoreDecider.notification(Self.notification("DID_RENEW"), receivedAt: "production", orgID: "org1", products: Self.products)
        }
    }

    @Test("DID_FAIL_TO_RENEW records a failed renewal: a grace period with Apple's date when the subtype says so, else billing retry")
    func failedRenewal() throws {
        let grace = Timestamp(microseconds: Self.now.microseconds + 16 * 86_400_000_000)!
        var withGrace = Self.notification("DID_FAIL_TO_RENEW")
        withGrace.subtype = "GRACE_PERIOD"
        withGrace.gracePeriodExpires = grace
        let graced = try AppStoreDecider.notification(withGrace, receivedAt: "sandbox", orgID: "org1", products: Self.products)
        #expect(graced.outcome == "grace_period")
        let event = try graced.decision.events[0].decode(AppStoreRenewalFailed.self)
        #expect(event.gracePeriodExpiresDate == grace && event.orgID == "org1")
        #expect(graced.decision.idempotencyKey == "apple-notification:n-1")

        // Without the subtype, a grace date in the renewal info is not Apple's word on access.
        var retry = Self.notification("DID_FAIL_TO_RENEW")
        retry.gracePeriodExpires = grace
        let retried = try AppStoreDecider.notification(retry, receivedAt: "sandbox", orgID: "org1", products: Self.products)
        #expect(retried.outcome == "billing_retry")
        #expect(try retried.decision.events[0].decode(AppStoreRenewalFailed.self).gracePeriodExpiresDate == nil)
        // As any notification: another product, no organization: acknowledged only.
        #expect(try AppStoreDecider.notification(Self.notification("DID_FAIL_TO_RENEW", product: "p.coins"), receivedAt: "sandbox",
                                                 orgID: "org1", products: Self.products).outcome.hasPrefix("ignored"))
        #expect(try AppStoreDecider.notification(Self.notification("DID_FAIL_TO_RENEW"), receivedAt: "sandbox",
                                                 orgID: nil, products: Self.products).outcome.hasPrefix("ignored"))
    }

    @Test("Lifecycle: an end records the notification type as its reason and answers how it ended (expired, refunded, revoked)")
    func endsSayHow() throws {
        for (type, how) in [("EXPIRED", "expired"), ("GRACE_PERIOD_EXPIRED", "expired"), ("REFUND", "refunded"), ("REVOKE", "revoked")] {
            let decided = try AppStoreDecider.notification(Self.notification(type), receivedAt: "sandbox", orgID: "org1", products: Self.products)
            #expect(decided.outcome == how)
            let e = try decided.decision.events[0].decode(AppStoreSubscriptionEnded.self)
            #expect(e.reason == type && e.ending.rawValue == how)
        }
    }

    @Test("Lifecycle: a transaction's ownership (Family Sharing) and offer (offerType, offerIdentifier, offerDiscountType) are recorded with it")
    func transactionFacts() throws {
        var t = Self.transaction()
        t.inAppOwnershipType = "FAMILY_SHARED"
        t.offerType = 3
        t.offerIdentifier = "SPRING"
        t.offerDiscountType = "FREE_TRIAL"
        let n = AppStoreDecider.Notification(notificationUUID: "n-2", type: "OFFER_REDEEMED", subtype: nil, signedDate: Self.now,
                                             environment: "Sandbox", transaction: t)
        let decided = try AppStoreDecider.notification(n, receivedAt: "sandbox", orgID: "org1", products: Self.products)
        let e = try decided.decision.events[0].decode(AppStoreTransactionRecorded.self)
        #expect(e.inAppOwnershipType == "FAMILY_SHARED" && e.offerType == 3 && e.offerIdentifier == "SPRING" && e.offerDiscountType == "FREE_TRIAL")
        let posted = try Self.record(t).events.last!.decode(AppStoreTransactionRecorded.self)
        #expect(posted.inAppOwnershipType == "FAMILY_SHARED" && posted.offerType == 3)
    }

    @Test("Lifecycle: events recorded before ownership and offers were kept decode with none (nil)")
    func oldEventsDecode() throws {
        let old = try JSONValue.parse("""
            {"org_id":"org1","original_transaction_id":"o","transaction_id":"t","product_id":"p.plus","plan":"plus",
             "purchase_date":"2026-11-01T00:00:00.000000Z","expires_date":null,"revocation_date":null,
             "signed_date":"2026-11-01T00:00:00.000000Z","environment":"Sandbox","person_id":null,"via":"SUBSCRIBED",
             "expired_when_recorded":false}
            """)
        let e = try JSONValueDecoder().decode(AppStoreTransactionRecorded.self, from: old)
        #expect(e.inAppOwnershipType == nil && e.offerType == nil && e.offerIdentifier == nil && e.offerDiscountType == nil)
    }

    @Test("Lifecycle: PRICE_INCREASE records where the increase stands, from the subtype, else the renewal info's priceIncreaseStatus")
    func priceIncrease() throws {
        func decide(_ subtype: String?, _ status: Int?) throws -> AppStoreDecider.NotificationOutcome {
            var n = Self.notification("PRICE_INCREASE")
            n.subtype = subtype
            n.priceIncreaseStatus = status
            n.renewalPrice = 12_990
            n.currency = "USD"
            return try AppStoreDecider.notification(n, receivedAt: "sandbox", orgID: "org1", products: Self.products)
        }
        #expect(try decide("PENDING", 0).outcome == "price_increase_pending")
        let accepted = try decide("ACCEPTED", 1)
        #expect(accepted.outcome == "price_increase_accepted")
        let e = try accepted.decision.events[0].decode(AppStorePriceIncreaseReported.self)
        #expect(e.status == .accepted && e.renewalPrice == 12_990 && e.currency == "USD" && e.orgID == "org1")
        #expect(accepted.decision.events[0].stream == Self.transaction().stream)
        #expect(try decide(nil, 0).outcome == "price_increase_pending", "the renewal info speaks when the subtype does not")
        #expect(try decide(nil, 1).outcome == "price_increase_accepted")
        #expect(try decide(nil, nil).outcome.hasPrefix("ignored"), "neither says: acknowledged, nothing guessed")
    }

    @Test("Lifecycle: RENEWAL_EXTENSION SUMMARY is acknowledged with what its summary says; FAILURE is recorded on the subscription it names")
    func renewalExtension() throws {
        var summary = Self.notification("RENEWAL_EXTENSION", transaction: false)
        summary.subtype = "SUMMARY"
        summary.summary = AppStoreRenewalExtensionSummary(requestIdentifier: "req-7", productID: "p.plus", succeededCount: 120, failedCount: 3)
        let acknowledged = try AppStoreDecider.notification(summary, receivedAt: "sandbox", orgID: nil, products: Self.products)
        #expect(acknowledged.outcome == "ignored: renewal date extension req-7 of p.plus: 120 succeeded, 3 failed")
        #expect(acknowledged.decision.events[0].stream == "appstore-notifications")
        var failure = Self.notification("RENEWAL_EXTENSION")
        failure.subtype = "FAILURE"
        let failed = try AppStoreDecider.notification(failure, receivedAt: "sandbox", orgID: "org1", products: Self.products)
        #expect(failed.outcome == "renewal_extension_failed")
        #expect(try failed.decision.events[0].decode(AppStoreRenewalExtensionFailed.self).originalTransactionID == "2000000000")
        #expect(try AppStoreDecider.notification(Self.notification("RENEWAL_EXTENDED"), receivedAt: "sandbox", orgID: "org1",
                                                 products: Self.products).outcome == "applied")
    }
}
