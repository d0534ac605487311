import AppStore
import AppStoreServerAPI
import Foundation
import LedgerJSON
import Outbound
import Testing
import TestSupport

@Suite("The stand-in refuses the tokens Apple would refuse, and the client says so", .bounded)
struct TokenRefusalTests {
    /// Sends `token` to Get Transaction Info as it is, outside the client.
    static func status(of token: String, fixture: StandInFixture, id: String) throws -> Int {
        let outbound = OutboundClient(policy: .development)
        defer { outbound.close() }
        let response = try outbound.send(OutboundRequest(method: "GET", url: fixture.standIn.baseURL + "/inApps/v1/transactions/" + id,
                                                         headers: [("Authorization", "Bearer \(token)")]))
        return response.status
    }

    @Test("a wrong key id is a 401, mapped to token_refused and not retried")
    func wrongKeyID() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        var credentials = fixture.credentials
        credentials.keyID = "OTHERKEY00"
        let error = try #require(throws: AppStoreServerAPIError.self) {
            try fixture.client(credentials: credentials).transactionInfo(transactionID: transaction.transactionID)
        }
        #expect(error.code == .tokenRefused)
        #expect(error.status == 401)
        #expect(error.attempts == 1)
        #expect(!error.isRetryable)
        #expect(fixture.recordedSleeps.isEmpty)
        #expect(fixture.standIn.tokenRefusals == ["unknown kid"])
    }

    @Test("a token that expired by the stand-in's clock is a 401")
    func expired() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        let error = try #require(throws: AppStoreServerAPIError.self) {
            try fixture.client(clockOffset: -21 * 60).transactionInfo(transactionID: transaction.transactionID)
        }
        #expect(error.code == .tokenRefused)
        #expect(fixture.standIn.tokenRefusals == ["expired"])
    }

    @Test("the wrong audience, bundle id, issuer, a lifetime over an hour, another key's signature: each a 401")
    func otherRefusals() throws {
        let fixture = try StandInFixture()
        let transaction = fixture.addTransaction()
        let now = Int64(fixture.clock().timeIntervalSince1970)
        let credentials = fixture.credentials
        var otherBundle = credentials
        otherBundle.bundleID = "com.example.other"
        var otherIssuer = credentials
        otherIssuer.issuerID = "00000000-0000-0000-0000-000000000000"
        let otherKey = AppStoreServerAPICredentials(issuerID: credentials.issuerID, keyID: credentials.keyID,
                                                    bundleID: credentials.bundleID, key: AppStoreSigningKey())
        let cases: [(String, String)] = [
            (AppStoreServerAPITokenIssuer.sign(credentials: credentials, issuedAt: now, expiresAt: now + 600, audience: "appstoreconnect-v2"), "wrong aud"),
            (AppStoreServerAPITokenIssuer.sign(credentials: otherBundle, issuedAt: now, expiresAt: now + 600), "wrong bid"),
            (AppStoreServerAPITokenIssuer.sign(credentials: otherIssuer, issuedAt: now, expiresAt: now + 600), "wrong iss"),
            (AppStoreServerAPITokenIssuer.sign(credentials: credentials, issuedAt: now, expiresAt: now + 3601), "valid for more than an hour"),
            (AppStoreServerAPITokenIssuer.sign(credentials: otherKey, issuedAt: now, expiresAt: now + 600), "bad signature"),
            (AppStoreServerAPITokenIssuer.sign(credentials: credentials, issuedAt: now - 1200, expiresAt: now), "expired"),
            ("not.a.token", "not a compact JWT"),
        ]
        for (token, _) in cases {
            #expect(try Self.status(of: token, fixture: fixture, id: transaction.transactionID) == 401)
        }
        #expect(fixture.standIn.tokenRefusals == cases.map(\.1))
        let good = AppStoreServerAPITokenIssuer.sign(credentials: credentials, issuedAt: now, expiresAt: now + 3600)
        #expect(try Self.status(of: good, fixture: fixture, id: transaction.transactionID) == 200, "exactly an hour is accepted")
    }
}
