import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices

/// The demo data `ledger dev` seeds, once (every append carries an idempotency key, so a
/// second start appends nothing), and the keys and ids it returns for `.ledger/demo.json`.
///
/// Billing: a payer `acme` funding `acme-web` and `acme-mobile`, a self-paying `solo`,
/// prices, credits and an open hold; what happens to them (usage, holds settled, a
/// correction, last month closed) is `DemoStory`'s, played through the API and the acts
/// once the services answer. The demo keys are random, made once
/// per data directory and kept in its `demo-keys.json` (0600, `DemoKeys`), so that they
/// survive restarts while nobody without that file can know them.
public enum DemoData {
    /// The demo organization's account token: StoreKit purchases for it carry this
    /// appAccountToken.
    static let accountToken = "7b0f6f9e-5c1a-4f3b-9d64-2f1e8a0c4d11"

    /// Appends one demo event under the idempotency key `demo:<key>`, so that every start
    /// of `ledger dev` after the first appends nothing.
    static func appendDemo<E: DomainEvent>(_ event: E, _ stream: String, key: String, at: Timestamp? = nil,
                                           store: EventStore, metadata: EventMetadata) throws {
        _ = try store.append(AppendRequest(EventToAppend(stream: stream, type: E.type, data: try JSONValueEncoder().encode(event),
                                                         metadata: metadata, occurredAt: at),
                                           idempotencyKey: "demo:" + key))
    }

    /// Seeds the demo on `store`, with the keys of `dataDirectory` (made there on first use).
    static func seed(store: EventStore, sessionSecret: [UInt8], dataDirectory: String, now: Date = Date()) throws -> [String: JSONValue] {
        let demoKeys = try DemoKeys.loadOrIssue(in: dataDirectory, store: store)
        let metadata = EventMetadata(actor: Actor(.system, "ledger-dev"), reason: "ledger dev seeds the demo data")
        func append<E: DomainEvent>(_ event: E, _ stream: String, key: String, at: Timestamp? = nil) throws {
            try appendDemo(event, stream, key: key, at: at, store: store, metadata: metadata)
        }
        let epoch = Timestamp(iso8601: "2026-01-01T00:00:00Z")!
        _ = try store.append(AppendRequest(
            EventToAppend(stream: "system-ledger", type: "ledger.initialised", data: ["note": "demo data of the embedded default"],
                          metadata: metadata), idempotencyKey: "demo:ledger-initialised"))
        try append(PricingConfigured(unitPrice: Millicredits(10), storagePricePerGiBMonth: Millicredits(50_000)), "config-pricing", key: "pricing")
        try append(PayerCreated(payerID: "acme", name: "Acme Corp"), "payer-acme", key: "payer-acme", at: epoch)
        try append(PlanSet(pool: .payer("acme"), plan: "team", allowanceStorageBytes: 1 << 30), "payer-acme", key: "plan-acme")
        for project in ["acme-web", "acme-mobile"] {
            try append(ProjectCreated(projectID: project, name: project, funding: .payer("acme")), "project-" + project,
                       key: "project-" + project, at: epoch)
        }
        try append(ProjectCreated(projectID: "solo", name: "Solo", funding: .selfPaying), "project-solo", key: "project-solo", at: epoch)
        try append(PlanSet(pool: .project("solo"), plan: "hobby", allowanceStorageBytes: 256 << 20), "project-solo", key: "plan-solo")
        try append(CreditPosted(pool: .payer("acme"), source: .plan, amount: Millicredits(500_000), description: "team plan allowance"),
                   "payer-acme", key: "credit-acme-plan")
        try append(CreditPosted(pool: .payer("acme"), source: .grant, amount: Millicredits(1_000_000), description: "launch grant"),
                   "payer-acme", key: "credit-acme-grant")
        try append(CreditPosted(pool: .project("solo"), source: .purchase, amount: Millicredits(200_000), description: "credit pack"),
                   "project-solo", key: "credit-solo")
        try append(HoldPlaced(holdID: "demo-export", projectID: "acme-web", pool: .payer("acme"), amount: Millicredits(2_500),
                              description: "data export in progress"), "hold-demo-export", key: "hold")

        var keys: [String: JSONValue] = [:]
        for (name, principal) in DemoKeys.accounts {
            try demoKeys.issueAccount(name, principal: principal, store: store, metadata: metadata)
            keys[name] = .string(demoKeys.account(name).secret)
        }

        // The App Store: an organization whose administrator can open the offer.
        try append(OrganizationCreated(orgID: "screenrig-demo", name: "ScreenRig Demo School"), "org-screenrig-demo", key: "org", at: epoch)
        try append(AccountTokenCreated(orgID: "screenrig-demo", accountToken: UUID(uuidString: accountToken)!),
                   "org-screenrig-demo", key: "org-token", at: epoch)
        try append(AdminDesignated(orgID: "screenrig-demo", personID: "demo-admin"), "org-screenrig-demo", key: "org-admin", at: epoch)
        let expires = Int64(now.timeIntervalSince1970) + 30 * 86_400
        let session = SessionToken.sign(["sub": "demo-admin", "org": "screenrig-demo", "email": "admin@lincoln.k12.ne.us",
                                         "email_verified": true, "csrf": "demo-csrf", "exp": .integer(expires)], secret: sessionSecret)
        let month = UTCMonth(containing: Timestamp(microseconds: Int64(now.timeIntervalSince1970 * 1_000_000)) ?? epoch)
        let catalog = try seedCatalog(store: store, metadata: metadata, key: demoKeys.catalogKey)
        return [
            "catalog": catalog,
            "appstore": [
                "org_id": "screenrig-demo", "admin": "demo-admin", "account_token": .string(accountToken),
                "session_cookie": .string("session=" + session), "csrf_header": "X-CSRF-Token: demo-csrf",
                "session_expires": .string(Timestamp(microseconds: expires * 1_000_000)?.iso8601 ?? ""),
            ],
            "keys": .object(keys),
            "ids": ["payer": "acme", "funded_projects": ["acme-web", "acme-mobile"], "self_paying_project": "solo",
                    "open_hold": "demo-export",
                    "month": .string(month.description), "closed_month": .string(month.previous?.description ?? ""),
                    "appstore_org": .string(DemoStory.storyOrg.id)],
        ]
    }
}
