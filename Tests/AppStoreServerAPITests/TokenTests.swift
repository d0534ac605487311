import AppStore
import AppStoreServerAPI
import Crypto
import Dispatch
import Foundation
import LedgerJSON
import Synchronization
import Testing
import TestSupport

@Suite("The API token is Apple's ES256 JWT, cached and renewed before it expires", .bounded)
struct TokenTests {
    static func parts(_ token: String) throws -> (header: JSONValue, claims: JSONValue, input: [UInt8], signature: [UInt8]) {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(pieces.count == 3)
        let header = try JSONValue.parse(try #require(Base64URL.decode(pieces[0])))
        let claims = try JSONValue.parse(try #require(Base64URL.decode(pieces[1])))
        return (header, claims, Array("\(pieces[0]).\(pieces[1])".utf8), try #require(Base64URL.decode(pieces[2])))
    }

    @Test("the header and claims are Apple's, the signature verifies, and the stand-in accepts it")
    func headerAndClaims() throws {
        let fixture = try StandInFixture()
        let client = fixture.client()
        let token = client.tokens.token()
        let (header, claims, input, signature) = try Self.parts(token)
        #expect(header == ["alg": "ES256", "kid": .string(StandInFixture.keyID), "typ": "JWT"])
        let now = Int64(fixture.clock().timeIntervalSince1970)
        #expect(claims == ["iss": .string(StandInFixture.issuerID), "iat": .integer(now), "exp": .integer(now + 1200),
                           "aud": "appstoreconnect-v1", "bid": .string(StandInFixture.bundleID)])
        #expect(signature.count == 64)
        #expect(fixture.key.verifies(signature, of: input))
        #expect(!AppStoreSigningKey().verifies(signature, of: input))

        let transaction = fixture.addTransaction()
        let answer = try client.transactionInfo(transactionID: transaction.transactionID)
        #expect(answer.value == transaction)
        #expect(fixture.standIn.tokenRefusals.isEmpty)
        #expect(fixture.standIn.requests.map(\.status) == [200])
    }

    @Test("the .p8 text loads the key; anything else is invalid_private_key")
    func privateKeyFromPEM() throws {
        let key = AppStoreSigningKey()
        let pem = PEM.encode(key.pkcs8DER, label: "PRIVATE KEY")
        let credentials = try AppStoreServerAPICredentials(issuerID: "i", keyID: "k", bundleID: "b", privateKeyPEM: pem)
        #expect(credentials.key.pkcs8DER == key.pkcs8DER)
        for bad in ["", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", PEM.encode(key.pkcs8DER, label: "EC PRIVATE KEY"),
                    PEM.encode(AppStoreSigningKey(curve: "P-384").pkcs8DER, label: "PRIVATE KEY")] {
            #expect(throws: AppStoreServerAPIError.self) {
                try AppStoreServerAPICredentials(issuerID: "i", keyID: "k", bundleID: "b", privateKeyPEM: bad)
            }
        }
    }

    @Test("one token serves until less than 5 minutes are left, then a new one is made")
    func reusedThenRenewed() throws {
        let fixture = try StandInFixture()
        let issuer = AppStoreServerAPITokenIssuer(credentials: fixture.credentials, clock: fixture.clock)
        let first = issuer.token()
        fixture.advance(seconds: 14 * 60 + 59)
        #expect(issuer.token() == first, "5 minutes and 1 second left: kept")
        fixture.advance(seconds: 2)
        let second = issuer.token()
        #expect(second != first, "4 minutes 59 seconds left: renewed")
        let (_, claims, _, _) = try Self.parts(second)
        #expect(claims["iat"]?.int64Value == Int64(fixture.clock().timeIntervalSince1970))
        #expect(issuer.token() == second)
        issuer.invalidate(first)
        #expect(issuer.token() == second, "forgetting a token no longer cached changes nothing")
        issuer.invalidate(second)
        #expect(issuer.token() != second)
    }

    @Test("threads racing for a token get the same one")
    func sharedBetweenThreads() throws {
        let fixture = try StandInFixture()
        let issuer = AppStoreServerAPITokenIssuer(credentials: fixture.credentials, clock: fixture.clock)
        let seen = Mutex<Set<String>>([])
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let token = issuer.token()
            seen.withLock { _ = $0.insert(token) }
        }
        #expect(seen.withLock { $0.count } == 1)
    }

    @Test("a client renews its token across calls as the clock moves, and the stand-in accepts each")
    func renewedAcrossCalls() throws {
        let fixture = try StandInFixture()
        let client = fixture.client()
        let transaction = fixture.addTransaction()
        var tokens: Set<String> = []
        for _ in 0..<4 {
            _ = try client.transactionInfo(transactionID: transaction.transactionID)
            tokens.insert(client.tokens.token())
            fixture.advance(seconds: 16 * 60)
        }
        #expect(tokens.count == 4)
        #expect(fixture.standIn.tokenRefusals.isEmpty)
    }
}
