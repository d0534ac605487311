import Foundation
import LedgerCLI
import LedgerFixtures
import LedgerJSON
import Testing
import TestSupport

/// `ledger checkpoint-key public` finds the key where the projector finds it: in the clone
/// of a `ledger dev` (its demo.json in LEDGER_DATA_DIR, no DATABASE_URL), the key `ledger dev`
/// keeps there, as every other command finds `ledger dev`'s files (docs/audit.md).
@Suite("ledger checkpoint-key", .bounded)
struct CheckpointKeyCommandTests {
    @Test("`public` in a dev clone prints ledger dev's key, as the projector finds it; elsewhere it names what it looked for")
    func publicFindsTheDevKey() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-checkpoint-key-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyFile = directory + "/" + LedgerEnvironment.devCheckpointKeyFile
        // A newcomer's terminal: nothing set but where `ledger dev`'s files are.
        let clone = ["LEDGER_DATA_DIR": directory, "DATABASE_URL": "", "LEDGER_CHECKPOINT_KEY_FILE": "", "LEDGER_ENVIRONMENT": ""]

        let created = try LedgerExecutable.run(["checkpoint-key", "create", "--out", keyFile], environment: clone)
        #expect(created.status == 0, "\(created.errors)")
        #expect(created.output.hasPrefix("key id: ") && created.output.contains("BEGIN PUBLIC KEY"), "\(created.output)")

        // No demo.json yet: the production profile, which never looks in LEDGER_DATA_DIR.
        let production = try LedgerExecutable.run(["checkpoint-key", "public"], environment: clone)
        #expect(production.status == 2)
        #expect(production.errors.contains("LEDGER_CHECKPOINT_KEY_FILE") && production.errors.contains("production profile"), "\(production.errors)")

        // `ledger dev` has run here: its demo.json says where its cluster is.
        let demo: JSONValue = ["database_url": "postgresql://ledger@127.0.0.1:1/ledger", "base_url": "http://127.0.0.1:8080"]
        try Data(demo.prettyText().utf8).write(to: URL(fileURLWithPath: directory + "/demo.json"))
        let found = try LedgerExecutable.run(["checkpoint-key", "public"], environment: clone)
        #expect(found.status == 0, "\(found.errors)")
        #expect(found.output == created.output, "the same key id and public key as when it was made")
        #expect(found.errors.contains("using the key `ledger dev` keeps, \(keyFile)"), "\(found.errors)")

        // --key and LEDGER_CHECKPOINT_KEY_FILE still come first.
        let other = directory + "/other.pem"
        let made = try LedgerExecutable.run(["checkpoint-key", "create", "--out", other], environment: clone)
        #expect(made.status == 0, "\(made.errors)")
        let named = try LedgerExecutable.run(["checkpoint-key", "public"], environment: clone.merging(["LEDGER_CHECKPOINT_KEY_FILE": other]) { $1 })
        #expect(named.status == 0 && named.output == made.output && named.errors.isEmpty, "\(named.errors)")
        let given = try LedgerExecutable.run(["checkpoint-key", "public", "--key", other], environment: clone)
        #expect(given.status == 0 && given.output == made.output, "\(given.errors)")

        // Without the key file, a dev clone says where it looked.
        try FileManager.default.removeItem(atPath: keyFile)
        let missing = try LedgerExecutable.run(["checkpoint-key", "public"], environment: clone)
        #expect(missing.status == 2)
        #expect(missing.errors.contains("no `ledger dev` key at \(keyFile)"), "\(missing.errors)")
    }
}
