import API
import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerServices
import Testing
import TestSupport

@Suite("A revoked key is refused from the moment its revocation is recorded", .bounded)
struct RevocationTests {
    /// Revokes `keyID` through the shared act, as `ledger admin key revoke` does, and
    /// returns the revocation's position once the act has answered.
    static func revoke(_ keyID: String, in f: BillingFixture) throws -> Int64 {
        let runner = LedgerDatabase(store: f.service.store, connections: f.service.context.connections).acts(now: SystemClock.now)
        let (outcome, _) = try runner.run(KeyRevokeAct(keyID: keyID), metadata: EventMetadata(actor: f.operatorActor, reason: "test"), key: nil)
        guard case .appended(let result) = outcome else {
            Issue.record("the revocation was not appended: \(outcome)")
            return 0
        }
        return result.position
    }

    /// A project with a key that has just answered 200 (twice, so any memory of it is warm).
    static func projectWithKey(_ f: BillingFixture) throws -> (secret: String, keyID: String) {
        try f.project("solo")
        let secret = "sk_test_" + Hex.encode(SecureRandom.bytes(16))
        let keyID = "key_" + Hex.encode(SecureRandom.bytes(4))
        try f.append(KeyIssued(keyID: keyID, principal: KeyPrincipal(kind: .project, id: "solo"),
                               sha256: Hex.encode(SHA256.hash(Array(secret.utf8))), prefix: String(secret.prefix(12))),
                     stream: "key-" + keyID)
        for _ in 0..<2 { #expect(try f.get("/v1/projects/solo/balance", key: secret).status == 200) }
        return (secret, keyID)
    }

    @Test("with the projector stopped, the request after `key revoke` answered is refused, on the read and the write paths")
    func refusedWithTheProjectorStopped() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let (secret, keyID) = try Self.projectWithKey(f)
        f.stopProjector()
        _ = try Self.revoke(keyID, in: f)
        let read = try f.get("/v1/projects/solo/balance", key: secret)
        #expect(read.status == 401, "\(read.body)")
        #expect(read.body["code"] == "unauthenticated")
        let journal = try f.get("/v1/projects/solo/journal", key: secret)
        #expect(journal.status == 401, "\(journal.body)")
    }

    @Test("a read naming an older min_position does not revive a revoked key")
    func anOldMinPositionDoesNotReviveARevokedKey() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        let (secret, keyID) = try Self.projectWithKey(f)
        let before = try f.service.store.log.headPosition()
        f.stopProjector()
        let revoked = try Self.revoke(keyID, in: f)
        #expect(revoked > before)
        let read = try f.get("/v1/projects/solo/balance?min_position=\(before)", key: secret)
        #expect(read.status == 401, "\(read.body)")
    }
}
