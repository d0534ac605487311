import Foundation
import Testing
import TestSupport
@testable import AppStore

/// `ledger appstore verify`, run as the built executable.
@Suite(.bounded) struct AppStoreCommandTests {
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `ledger appstore verify ARGS`, `stdin` fed to it, without LEDGER_* settings
    /// of the calling environment except those given.
    static func verify(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> Outcome {
        try ledger(["appstore", "verify"] + arguments, environment: environment, stdin: stdin)
    }

    /// Runs `ledger ARGS` likewise.
    static func ledger(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> Outcome {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-appstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out"), err = dir.appendingPathComponent("err"), input = dir.appendingPathComponent("in")
        for file in [out, err, input] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        try Data((stdin ?? "").utf8).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try LedgerBinary.path())
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LEDGER_") }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = try FileHandle(forReadingFrom: input)
        try process.run()
        if ProcessWatchdog.bounded(process, {}).killed { Issue.record("ledger \(arguments.joined(separator: " ")) ran past 120 s and was killed") }
        return Outcome(status: process.terminationStatus,
                       output: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                       errors: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// A temporary file holding `text`.
    static func file(_ text: String, suffix: String = ".jws") throws -> String {
        try ScratchFile.write(text, prefix: "appstore", suffix: suffix)
    }

    /// LEDGER_APPSTORE_EXTRA_ROOTS naming a PEM file of the shared test root, under the
    /// development profile, asked for by name (unset is production, which ignores them).
    static func trustingTestRoot() throws -> [String: String] {
        ["LEDGER_APPSTORE_EXTRA_ROOTS": try file(RootCertificatesTests.pem(TestCertificateAuthority.shared.rootDER), suffix: ".pem"),
         "LEDGER_ENVIRONMENT": "development"]
    }

    let signer = TestAppStoreSigner()

    @Test func aValidTransactionPrintsItsPayloadAndValid() throws {
        let outcome = try Self.verify([Self.file(signer.transaction(productID: "ai.screenrig.plus.monthly") + "\n")], environment: Self.trustingTestRoot())
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("\"productId\": \"ai.screenrig.plus.monthly\""))
        #expect(outcome.output.hasSuffix("valid\n"))
        #expect(!outcome.output.contains("invalid"))
    }

    @Test func aTamperedTransactionIsInvalidWithItsReason() throws {
        var p = parts(signer.transaction())
        p[2] = parts(signer.transaction())[2]
        let outcome = try Self.verify([Self.file(joined(p))], environment: Self.trustingTestRoot())
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("\"productId\""))
        #expect(outcome.output.contains("invalid: bad_signature: "))
    }

    @Test func theEnvironmentAndBundleOptions() throws {
        let roots = try Self.trustingTestRoot()
        let production = try Self.file(signer.transaction(environment: "Production"))
        #expect(try Self.verify([production, "--environment", "Production"], environment: roots).status == 0)
        let wrong = try Self.verify([production, "--environment", "Sandbox"], environment: roots)
        #expect(wrong.status == 1)
        #expect(wrong.output.contains("invalid: environment_not_allowed: "))
        let other = try Self.file(TestAppStoreSigner(bundleID: "com.example.other").transaction())
        #expect(try Self.verify([other], environment: roots).output.contains("invalid: bundle_mismatch: "))
        #expect(try Self.verify([other, "--bundle-id", "com.example.other"], environment: roots).status == 0)
        // The configured bundle ID is the default.
        #expect(try Self.verify([other], environment: roots.merging(["LEDGER_APPSTORE_BUNDLE_ID": "com.example.other"]) { $1 }).status == 0)
    }

    @Test func standardInputWithSurroundingWhitespace() throws {
        let outcome = try Self.verify(["-"], environment: Self.trustingTestRoot(), stdin: "\n  " + signer.renewalInfo(originalTransactionID: "7") + " \n\n")
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)")
        #expect(outcome.output.contains("\"originalTransactionId\": \"7\""))
    }

    /// Production trusts Apple's root alone: --production, or LEDGER_ENVIRONMENT, which
    /// makes LEDGER_APPSTORE_EXTRA_ROOTS ignored.
    @Test func productionIgnoresTheExtraRoots() throws {
        let jws = try Self.file(signer.transaction())
        let roots = try Self.trustingTestRoot()
        #expect(try Self.verify([jws], environment: roots).status == 0)
        let forced = try Self.verify([jws, "--production"], environment: roots)
        #expect(forced.status == 1)
        #expect(forced.output.contains("invalid: untrusted_chain: "))
        let configured = try Self.verify([jws], environment: roots.merging(["LEDGER_ENVIRONMENT": "production"]) { $1 })
        #expect(configured.output.contains("invalid: untrusted_chain: "))
        #expect(try Self.verify([jws]).output.contains("invalid: untrusted_chain: "))
        // The profile fails closed. Unset is production; a name that is
        // not exactly one of the two is a startup error, never taken for either.
        var unset = roots
        unset["LEDGER_ENVIRONMENT"] = nil
        #expect(try Self.verify([jws], environment: unset).output.contains("invalid: untrusted_chain: "))
        for wrong in ["Production", "prod", "dev", "Development", " development", "staging"] {
            let refused = try Self.verify([jws], environment: roots.merging(["LEDGER_ENVIRONMENT": wrong]) { $1 })
            #expect(refused.status == 2 && refused.errors.contains("neither production nor development"), "\(wrong): \(refused.errors)")
            #expect(refused.output.isEmpty, "nothing runs")
        }
    }

    @Test func aNotificationPrintsItsNestedPayloadsDecoded() throws {
        let jws = signer.notification(type: "DID_RENEW", transaction: signer.transaction(productID: "nested.product"),
                                      renewal: signer.renewalInfo(originalTransactionID: "42"))
        let outcome = try Self.verify([Self.file(jws)], environment: Self.trustingTestRoot())
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("\"productId\": \"nested.product\""))
        #expect(outcome.output.contains("\"originalTransactionId\": \"42\""))
        #expect(!outcome.output.contains("eyJ"))  // no signed text left
    }

    @Test func garbageAndMissingFiles() throws {
        let garbage = try Self.verify([Self.file("not a jws")])
        #expect(garbage.status == 1)
        #expect(garbage.output.contains("invalid: malformed_jws: "))
        #expect(try Self.verify(["/nonexistent/file.jws"]).status == 2)
        #expect(try Self.verify([]).status == 2)
        let badRoots = try Self.verify([Self.file(signer.transaction())], environment: ["LEDGER_APPSTORE_EXTRA_ROOTS": "/nonexistent/root.pem", "LEDGER_ENVIRONMENT": "development"])
        #expect(badRoots.status == 1)
        #expect(badRoots.errors.contains("LEDGER_APPSTORE_EXTRA_ROOTS"))
    }

    @Test(.needsSharedData)
    func aRealSandboxNotificationUnderProduction() throws {
        let (_, jws) = try #require(SharedTestData.realSandbox().first { $0.name.hasPrefix("notif_REFUND") })
        let path = try Self.file(jws)
        let outcome = try Self.verify([path, "--production", "--bundle-id", RealSandboxTests.notificationBundle, "--environment", "Sandbox"])
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.contains("\"notificationType\": \"REFUND\""))
        #expect(outcome.output.contains("\"productId\": \"com.getsession.org.pro_sub"))
        #expect(try Self.verify([path, "--production"]).output.contains("invalid: bundle_mismatch: "))
    }
}
