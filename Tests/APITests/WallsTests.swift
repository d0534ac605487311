import API
import Crypto
import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON
import Projections
import Testing
import TestSupport

/// The walls before authentication on the API (docs/security.md, "Before authentication"),
/// each as a stranger would try it.
@Suite("Walls: before authentication nothing waits or tells; one credential per request", .bounded)
struct WallsTests {
    @Test("with the projection behind, a stranger's min_position read is answered at once and names no position")
    func nothingWaitsBeforeAuthentication() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let service = f.service
        try f.project("solo")
        try f.project("other")
        let own = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        let stranger = try f.key(for: KeyPrincipal(kind: .project, id: "other"))
        let head = try service.store.log.headPosition()
        f.stopProjector()
        // The projection is now behind whatever is appended (appended here without waiting for it).
        let later = try service.store.append(AppendRequest(events: [EventToAppend(
            stream: "project-solo", type: CreditPosted.type,
            data: try JSONValueEncoder().encode(CreditPosted(pool: .project("solo"), source: .grant, amount: Millicredits(5), description: "x")),
            metadata: EventMetadata(actor: f.operatorActor, reason: "test"))])).position
        let cases: [(String, [(String, String)], Int)] = [
            ("no credential", [], 401),
            ("an unknown key", [("Authorization", "Bearer sk_live_" + Hex.encode(SecureRandom.bytes(16)))], 401),
            ("a malformed credential", [("Authorization", "Basic eDp5")], 401),
            ("another project's key", [("Authorization", "Bearer " + stranger)], 404),
        ]
        for (name, headers, status) in cases {
            for target in [later, later + 1_000_000] {
                // The projector is stopped: a read that waited could only end in 503
                // projection_behind. Its own 401 or 404 is proof it did not wait.
                let r = try service.get("/v1/projects/solo/balance?min_position=\(target)", headers: headers)
                #expect(r.status == status, "\(name), min_position \(target): \(String(decoding: r.body, as: UTF8.self))")
                let body = String(decoding: r.body, as: UTF8.self)
                let numbers = Set(body.split { !$0.isNumber }.map(String.init))
                #expect(numbers.isDisjoint(with: [String(later), String(head), String(target)]) && !body.contains("head ("),
                        "\(name) learns a position: \(body)")
            }
        }
        // The owner's key waits, as read-your-writes promises, and is told the truth.
        let beyond = try service.get("/v1/projects/solo/balance?min_position=\(later + 1_000_000)", headers: [("Authorization", "Bearer " + own)])
        #expect(beyond.status == 400 && String(decoding: beyond.body, as: UTF8.self).contains("min_position_beyond_head"))
        let waited = try service.get("/v1/projects/solo/balance?min_position=\(later)", headers: [("Authorization", "Bearer " + own)])
        #expect(waited.status == 503 && String(decoding: waited.body, as: UTF8.self).contains("projection_behind"),
                "the owner's read waits for the projection, until its deadline")
    }

    @Test("two credentials in one request are a 400, on the billing and the catalog surfaces, whichever comes first")
    func conflictingCredentials() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.project("solo")
        let key = try f.key(for: KeyPrincipal(kind: .project, id: "solo"))
        try f.settle()
        let other = "sk_live_" + Hex.encode(SecureRandom.bytes(16))
        for pair in [[key, other], [other, key], [key, key]] {
            let r = try f.service.get("/v1/projects/solo/balance", headers: pair.map { ("Authorization", "Bearer " + $0) })
            #expect(r.status == 400, "\(pair)")
            #expect(try JSONValue.parse(r.body)["code"] == "conflicting_credentials")
            #expect(r.headers["Cache-Control"]?.contains("no-store") == true && r.headers["X-Content-Type-Options"] == "nosniff")
        }
        let catalog = try f.service.get("/v1/iap/products", headers: [("X-ZeroSettle-Key", "zs_pk_test_a"), ("X-ZeroSettle-Key", "zs_pk_test_b")])
        #expect(catalog.status == 400)
        let body = try JSONValue.parse(catalog.body)
        #expect(body["code"] == "conflicting_credentials" && body["error"]?.stringValue != nil, "the seed's Error shape: \(body)")
        #expect(try f.service.get("/v1/projects/solo/balance", headers: [("Authorization", "Bearer " + key)]).status == 200)
    }
}

