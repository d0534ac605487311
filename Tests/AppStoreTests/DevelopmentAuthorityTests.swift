import Crypto
import Foundation
import LedgerJSON
import Testing
import TestSupport
@testable import AppStore

/// The development authority `ledger dev` trusts and `ledger appstore sign` signs with.
@Suite(.bounded) struct DevelopmentAuthorityTests {
    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ledger-authority-\(UUID().uuidString)").path
    }

    @Test func aKeyRoundTripsThroughPKCS8() throws {
        let key = AppStoreSigningKey()
        let again = try #require(AppStoreSigningKey(pkcs8DER: key.pkcs8DER))
        #expect(again.pkcs8DER == key.pkcs8DER)
        let certificate = try #require(Certificate(der: AppStoreTestAuthority.issue(
            subject: key, name: "k", issuerDER: nil, issuer: key, notBefore: 0, notAfter: 4_000_000_000, isCA: false, marker: nil)))
        let message = Array("header.payload".utf8)
        #expect(message.withUnsafeBufferPointer { certificate.verifyES256(message: $0, signature: again.sign(message)) })
        // Only P-256 keys, and nothing but the key's bytes.
        #expect(AppStoreSigningKey(pkcs8DER: AppStoreSigningKey(curve: "P-384").pkcs8DER) == nil)
        #expect(AppStoreSigningKey(pkcs8DER: key.pkcs8DER + [0]) == nil)
        #expect(AppStoreSigningKey(pkcs8DER: Array(key.pkcs8DER.dropLast())) == nil)
        #expect(AppStoreSigningKey(pkcs8DER: []) == nil)
    }

    @Test func anAuthorityIsSavedAndLoadedAsPEM() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try AppStoreTestAuthority.loadOrCreate(in: directory)
        let loaded = try AppStoreTestAuthority.loadOrCreate(in: directory)
        #expect(loaded.rootDER == made.rootDER && loaded.intermediateDER == made.intermediateDER && loaded.leafDER == made.leafDER)
        #expect(loaded.leafKey.pkcs8DER == made.leafKey.pkcs8DER)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/" + AppStoreTestAuthority.File.leafKey)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let rootFile = try #require(FileManager.default.contents(atPath: directory + "/" + AppStoreTestAuthority.File.root))
        #expect(AppStoreRootCertificates.certificates(in: [UInt8](rootFile)) == [made.rootDER])
        // What the loaded one signs verifies under the made one's policy, and never in production.
        let jws = AppStoreTestSigner(authority: loaded).transaction()
        #expect(try AppStoreVerifier(policy: made.developmentPolicy).verifyTransaction(jws).environment == "Sandbox")
        #expect(refusal { try AppStoreVerifier(policy: .production).verifyTransaction(jws) } == .untrustedChain)
        // A damaged file is reported, not half-read.
        try Data("not pem".utf8).write(to: URL(fileURLWithPath: directory + "/" + AppStoreTestAuthority.File.intermediate))
        #expect(throws: AppStoreTestAuthority.FilesError.self) { try AppStoreTestAuthority.load(from: directory) }
    }

    @Test func ledgerAppStoreSignMakesPayloadsTheDevelopmentPolicyAccepts() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let token = UUID()
        let signed = try AppStoreCommandTests.ledger([
            "appstore", "sign", "transaction", "--authority", directory, "--account-token", token.uuidString,
            "--product", "ai.screenrig.premium.monthly", "--original-transaction-id", "2000000000000001",
            "--purchased", "2026-11-01T10:00:00Z", "--expires", "2026-12-01T10:00:00Z",
        ])
        #expect(signed.status == 0, "\(signed.errors)")
        let authority = try AppStoreTestAuthority.load(from: directory)
        let verifier = AppStoreVerifier(policy: authority.developmentPolicy)
        let transaction = try verifier.verifyTransaction(signed.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(transaction.appAccountToken == token)
        #expect(transaction.productID == "ai.screenrig.premium.monthly")
        #expect(transaction.originalTransactionID == "2000000000000001")
        #expect(transaction.purchaseDate.iso8601 == "2026-11-01T10:00:00.000000Z")
        #expect(transaction.expiresDate?.iso8601 == "2026-12-01T10:00:00.000000Z")
        #expect(transaction.environment == "Sandbox")

        let notification = try AppStoreCommandTests.ledger([
            "appstore", "sign", "notification", "--authority", directory, "--account-token", token.uuidString,
            "--type", "SUBSCRIBED", "--subtype", "INITIAL_BUY", "--body",
        ])
        #expect(notification.status == 0, "\(notification.errors)")
        let body = try JSONValue.parse(Array(notification.output.utf8))
        let payload = try #require(body["signedPayload"]?.stringValue)
        let verified = try verifier.verifyNotification(payload)
        #expect(verified.notificationType == "SUBSCRIBED" && verified.subtype == "INITIAL_BUY")
        #expect(verified.transaction?.appAccountToken == token)

        // `ledger appstore verify` trusts the authority through LEDGER_APPSTORE_EXTRA_ROOTS.
        let file = try AppStoreCommandTests.file(payload)
        let roots = ["LEDGER_APPSTORE_EXTRA_ROOTS": directory + "/" + AppStoreTestAuthority.File.root, "LEDGER_ENVIRONMENT": "development"]
        #expect(try AppStoreCommandTests.verify([file], environment: roots).status == 0)
        #expect(try AppStoreCommandTests.verify([file, "--production"], environment: roots).status == 1)

        let bad = try AppStoreCommandTests.ledger(["appstore", "sign", "transaction", "--authority", directory, "--account-token", "nope"])
        #expect(bad.status != 0)
        #expect(bad.errors.contains("--account-token must be a UUID"))
    }
}

extension DevelopmentAuthorityTests {
    /// PEM written by the product reads back, whatever the length, and matches an
    /// independent writer byte for byte.
    @Test func pemRoundTrips() throws {
        try Property.check("pemRoundTrips", count: 300) { rng, seed in
            let der = (0..<rng.int(0...400)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let text = PEM.encode(der, label: "CERTIFICATE")
            #expect(PEM.blocks("CERTIFICATE", in: text) == [der], "seed \(seed.hex)")
            if !der.isEmpty { #expect(text == RootCertificatesTests.pem(der), "seed \(seed.hex)") }
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= 64 || $0.hasPrefix("-----") }, "seed \(seed.hex)")
        }
        #expect(PEM.blocks("PRIVATE KEY", in: "-----BEGIN PRIVATE KEY-----\nAAAA\n") == nil)
        #expect(PEM.blocks("PRIVATE KEY", in: "-----BEGIN PRIVATE KEY-----\nA*AA\n-----END PRIVATE KEY-----") == nil)
    }
}
