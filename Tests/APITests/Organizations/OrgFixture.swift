import API
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import LedgerServices
import Testing
import TestSupport

/// Organizations for the O, T and N tests: appended as operator events, read over HTTP
/// with session cookies signed as the identity service signs them.
extension BillingFixture {
    @discardableResult
    func org(_ id: String, admins: [String] = ["alice"]) throws -> UUID {
        let token = UUID()
        try orgEvent(OrganizationCreated(orgID: id, name: id), id)
        try orgEvent(AccountTokenCreated(orgID: id, accountToken: token), id)
        for admin in admins { try orgEvent(AdminDesignated(orgID: id, personID: admin), id) }
        return token
    }

    /// An operator act on an organization, dated a day before the service's clock, so that
    /// an upgrade it makes is in force for the test's requests.
    func orgEvent<E: DomainEvent>(_ event: E, _ org: String, at: Timestamp? = nil) throws {
        let when = at ?? Timestamp(microseconds: service.clock.read().microseconds - 86_400_000_000)!
        try append(event, stream: "org-" + org, occurredAt: when)
    }

    /// A session cookie for a person.
    func session(_ person: String, org: String?, email: String? = nil, verified: Bool = true, staff: Bool = false,
                 reseller: String? = nil, csrf: String = "csrf-token", expiresIn: Int64 = 3600) -> (String, String) {
        var claims: [String: JSONValue] = ["sub": .string(person), "email_verified": .bool(verified), "staff": .bool(staff),
                                           "csrf": .string(csrf), "exp": .integer(service.clock.read().microseconds / 1_000_000 + expiresIn)]
        if let org { claims["org"] = .string(org) }
        if let email { claims["email"] = .string(email) }
        if let reseller { claims["reseller"] = .string(reseller) }
        return ("Cookie", "session=" + SessionToken.sign(.object(claims), secret: TestService.sessionSecret))
    }

    func offer(_ org: String, as cookie: (String, String)?) throws -> (status: Int, body: JSONValue, headers: HTTPHeaders) {
        try settle()
        let r = try service.client().send(method: "GET", path: "/v1/orgs/\(org)/appstore/offer", headers: cookie.map { [$0] } ?? [])
        return (r.status, r.body.isEmpty ? .null : try JSONValue.parse(r.body), r.headers)
    }

    /// An App Store transaction as the endpoints record it (for tests of the offer).
    func subscription(org: String, original: String, transaction: String, plan: Plan, holder: String?, purchased: String,
                      expires: String? = nil) throws {
        let e = AppStoreTransactionRecorded(orgID: org, originalTransactionID: original, transactionID: transaction,
                                            productID: AppStoreSettings.defaultProducts[plan]!, plan: plan, purchaseDate: t(purchased),
                                            expiresDate: expires.map(t), revocationDate: nil, signedDate: t(purchased),
                                            environment: "Sandbox", personID: holder, via: holder == nil ? "SUBSCRIBED" : "storekit",
                                            expiredWhenRecorded: false)
        try append(e, stream: "appstore-sub-" + original, occurredAt: t(purchased))
    }
}

func plans(_ offer: JSONValue) -> [String] { offer["products"]?.arrayValue?.compactMap { $0["plan"]?.stringValue } ?? [] }

extension BillingFixture {
    /// POSTs a signed transaction as the app does: session cookie, origin, CSRF header.
    func record(_ jws: String, org: String, as person: String = "alice", csrf: String? = "csrf-token",
                origin: String? = TestService.origin, email: String? = nil) throws -> (status: Int, body: JSONValue) {
        var headers: [(String, String)] = [session(person, org: org, email: email), ("Content-Type", "application/json")]
        if let origin { headers.append(("Origin", origin)) }
        if let csrf { headers.append(("X-CSRF-Token", csrf)) }
        let body: JSONValue = ["signed_transaction": .string(jws)]
        let r = try service.client().send(method: "POST", path: "/v1/orgs/\(org)/appstore/transactions", headers: headers,
                                          body: body.compactBytes())
        return (r.status, r.body.isEmpty ? .null : try JSONValue.parse(r.body))
    }

    /// POSTs a notification as Apple does.
    func notify(_ signedPayload: String, environment: String = "sandbox", from address: String? = nil) throws -> (status: Int, body: JSONValue, headers: HTTPHeaders) {
        let body: JSONValue = ["signedPayload": .string(signedPayload)]
        let r = try service.client().send(method: "POST", path: "/v1/appstore/notifications/\(environment)",
                                          headers: [("Content-Type", "application/json")], body: body.compactBytes())
        return (r.status, r.body.isEmpty ? .null : try JSONValue.parse(r.body), r.headers)
    }

    func currentPlan(_ org: String, as person: String = "alice") throws -> JSONValue? {
        try settle()   // the projector applies every projection in one transaction
        return try offer(org, as: session(person, org: org)).body["plan"]
    }
}

let signer = TestAppStoreSigner()
let products = AppStoreSettings.defaultProducts
