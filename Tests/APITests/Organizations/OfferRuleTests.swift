import API
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Testing
import TestSupport

@Suite("App Store offer (O1–O13)", .bounded)
struct OfferRuleTests {
    @Test("O1: a designated administrator of the active organization reads the offer")
    func o1Administrator() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme")
        let (status, offer, _) = try f.offer("acme", as: f.session("alice", org: "acme"))
        #expect(status == 200)
        #expect(offer["organization_id"] == "acme" && offer["bundle_id"] == "ai.screenrig.app")
        #expect(offer["account_token"] == .string(token.uuidString.lowercased()))
        // An administrator whose active organization is another one does not.
        try f.org("other", admins: ["alice"])
        #expect(try f.offer("acme", as: f.session("alice", org: "other")).status == 404)
        #expect(try f.offer("acme", as: nil).status == 401)
    }

    @Test("O2: staff and the reseller's administrators read it without products or token; anybody else gets 404")
    func o2Viewers() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("acme")
        try f.orgEvent(DelegatedToReseller(orgID: "acme", resellerID: "resell"), "acme")
        for cookie in [f.session("sam", org: nil, staff: true), f.session("rita", org: "resell", reseller: "resell")] {
            let (status, offer, _) = try f.offer("acme", as: cookie)
            #expect(status == 200)
            #expect(plans(offer).isEmpty)
            #expect(offer["account_token"] == "00000000-0000-0000-0000-000000000000")
        }
        for cookie in [f.session("bob", org: "acme"), f.session("rita", org: "x", reseller: "another"), f.session("eve", org: nil)] {
            let (status, problem, _) = try f.offer("acme", as: cookie)
            #expect(status == 404 && problem["code"] == "not_found")
        }
        #expect(try f.offer("nowhere", as: f.session("sam", org: nil, staff: true)).status == 404)
    }

    @Test("O3: an organization delegated to a reseller lists no products")
    func o3Delegated() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("acme")
        try f.orgEvent(DelegatedToReseller(orgID: "acme", resellerID: "resell"), "acme")
        let offer = try f.offer("acme", as: f.session("alice", org: "acme")).body
        #expect(plans(offer).isEmpty && offer["delegated_to_reseller"] == true && offer["can_purchase"] == false)
        try f.orgEvent(DelegationEnded(orgID: "acme"), "acme")
        #expect(plans(try f.offer("acme", as: f.session("alice", org: "acme")).body) == ["plus", "premium"])
    }

    @Test("O4: the account token is created once per organization and kept")
    func o4TokenOnce() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let token = try f.org("acme", admins: ["alice", "ann"])
        let a = try f.offer("acme", as: f.session("alice", org: "acme")).body["account_token"]
        let b = try f.offer("acme", as: f.session("ann", org: "acme")).body["account_token"]
        #expect(a == b && a == .string(token.uuidString.lowercased()))
        // A second token event cannot replace it.
        try f.orgEvent(AccountTokenCreated(orgID: "acme", accountToken: UUID()), "acme")
        #expect(try f.offer("acme", as: f.session("alice", org: "acme")).body["account_token"] == a)
    }

    @Test("O5: a reader who cannot buy gets the all-zero token")
    func o5ZeroToken() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("acme")
        try f.orgEvent(StaffPlanDecided(orgID: "acme", plan: .premium), "acme")
        let offer = try f.offer("acme", as: f.session("alice", org: "acme")).body
        #expect(plans(offer).isEmpty)
        #expect(offer["account_token"] == "00000000-0000-0000-0000-000000000000")
    }

    @Test("O6, O11: products are the plans buyable now; can_purchase exactly when there are some")
    func o6Products() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("acme")
        var offer = try f.offer("acme", as: f.session("alice", org: "acme")).body
        #expect(plans(offer) == ["plus", "premium"])
        #expect(offer["products"]?[0]?["product_id"] == "ai.screenrig.plus.monthly")
        #expect(offer["can_purchase"] == true)
        try f.orgEvent(BillingPlanChanged(orgID: "acme", plan: .plus), "acme")
        offer = try f.offer("acme", as: f.session("alice", org: "acme")).body
        #expect(plans(offer) == ["premium"])
        try f.orgEvent(StaffEducationDecided(orgID: "acme", eligible: true), "acme")
        offer = try f.offer("acme", as: f.session("alice", org: "acme")).body
        #expect(plans(offer) == ["education", "premium"])
        #expect(offer["can_purchase"] == true)
    }

    @Test("O7, O8: a verified school e-mail makes the organization eligible once, with an audit entry naming the domain")
    func o8SchoolEmail() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("school", admins: ["teacher", "other"])
        // Not verified: no.
        var offer = try f.offer("school", as: f.session("teacher", org: "school", email: "t@district.k12.ca.us", verified: false)).body
        #expect(offer["education_eligible"] == false && !plans(offer).contains("education"))
        // Verified: eligible in this same offer.
        offer = try f.offer("school", as: f.session("teacher", org: "school", email: "T@District.K12.CA.US")).body
        #expect(offer["education_eligible"] == true && offer["education_eligibility_source"] == "school_email")
        #expect(plans(offer) == ["plus", "education", "premium"])
        _ = try f.offer("school", as: f.session("teacher", org: "school", email: "t@district.k12.ca.us"))
        _ = try f.offer("school", as: f.session("other", org: "school", email: "o@x.k12.ny.us"))
        try f.settle()
        let audit = try f.service.db.connect().query("""
            SELECT detail FROM proj_organizations.org_audit WHERE org_id = 'school' AND type = 'org.education_eligibility_granted'
            """)
        #expect(audit.rowCount == 1, "once")
        #expect(audit[0].string(0)?.contains("k12.ca.us") == true)
        // Another administrator, without a school e-mail, sees it too: it is the organization's.
        #expect(try f.offer("school", as: f.session("other", org: "school", email: "o@gmail.com")).body["education_eligible"] == true)
        // An address that is not a school's does nothing.
        try f.org("shop")
        #expect(try f.offer("shop", as: f.session("alice", org: "shop", email: "a@k12.ca.us.example.com")).body["education_eligible"] == false)
    }

    @Test("O9: a staff decision, either way, is final; automatic eligibility never overrides it")
    func o9StaffFinal() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("acme")
        try f.orgEvent(StaffEducationDecided(orgID: "acme", eligible: false), "acme")
        let offer = try f.offer("acme", as: f.session("alice", org: "acme", email: "a@school.k12.tx.us")).body
        #expect(offer["education_eligible"] == false)
        try f.settle()
        #expect(try f.service.db.connect().query("SELECT auto_education_domain FROM proj_organizations.orgs WHERE org_id = 'acme'")[0].isNull(0))
        try f.orgEvent(StaffEducationDecided(orgID: "acme", eligible: true), "acme")
        let again = try f.offer("acme", as: f.session("alice", org: "acme")).body
        #expect(again["education_eligible"] == true && again["education_eligibility_source"] == "staff")
    }

    @Test("O10: a plan held through another source at the same or a higher level is not offered, except to the subscription's holder")
    func o10HeldElsewhere() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("acme", admins: ["alice", "bob"])
        try f.subscription(org: "acme", original: "1000", transaction: "1000", plan: .plus, holder: "alice",
                           purchased: "2026-11-10T00:00:00Z", expires: "2026-12-10T00:00:00Z")
        // Bob: plus is held by alice's subscription, so only premium.
        #expect(plans(try f.offer("acme", as: f.session("bob", org: "acme")).body) == ["premium"])
        // Alice holds it: she may change plan within the group.
        let own = try f.offer("acme", as: f.session("alice", org: "acme")).body
        #expect(plans(own) == ["plus", "premium"])
        #expect(own["subscription"]?["held_by_reader"] == true)
        try f.orgEvent(StaffPlanDecided(orgID: "acme", plan: .premium), "acme")
        #expect(plans(try f.offer("acme", as: f.session("bob", org: "acme")).body).isEmpty)
    }

    @Test("O12: subscription is the organization's App Store subscription, or null")
    func o12Subscription() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("acme")
        #expect(try f.offer("acme", as: f.session("alice", org: "acme")).body["subscription"] == .null)
        try f.subscription(org: "acme", original: "2000", transaction: "2001", plan: .premium, holder: "alice",
                           purchased: "2026-11-01T00:00:00Z", expires: "2026-12-01T00:00:00Z")
        let s = try #require(try f.offer("acme", as: f.session("alice", org: "acme")).body["subscription"])
        #expect(s["original_transaction_id"] == "2000" && s["plan"] == "premium" && s["status"] == "active")
        #expect(s["expires_at"] == "2026-12-01T00:00:00.000000Z")
    }

    @Test("O13: the offer is private and must not be stored")
    func o13NoStore() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("acme")
        let (_, _, headers) = try f.offer("acme", as: f.session("alice", org: "acme"))
        #expect(headers["cache-control"] == "private, no-store")
    }

    @Test("sessions: an expired, unsigned or foreign-signed cookie is 401")
    func sessions() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.org("acme")
        #expect(try f.offer("acme", as: f.session("alice", org: "acme", expiresIn: -1)).status == 401)
        let forged = SessionToken.sign(["sub": "alice", "org": "acme", "exp": 9_999_999_999], secret: Array("another key".utf8))
        #expect(try f.offer("acme", as: ("Cookie", "session=" + forged)).status == 401)
        let none = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSIsIm9yZyI6ImFjbWUiLCJleHAiOjk5OTk5OTk5OTl9."
        #expect(try f.offer("acme", as: ("Cookie", "session=" + none)).status == 401)
    }
}
