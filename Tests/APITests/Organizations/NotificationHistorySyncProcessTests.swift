import AppStore
import AppStoreServerStandIn
import Crypto
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Postgres
import Testing
import TestSupport

/// The notification history sync as operators run it: `ledger appstore sync run` cut off
/// with a crash in the middle of a page and run again, and `ledger project` running it on
/// its schedule (docs/appstore.md, "Recovery").
@Suite("The notification history sync in real processes: a crash halfway, the projector's schedule", .bounded)
struct NotificationHistorySyncProcessTests {
    /// A stand-in for Apple on the machine's clock, the keys file naming it, and the
    /// development roots that trust its signatures.
    final class Apple: Sendable {
        let key = AppStoreSigningKey()
        let standIn: AppStoreServerStandIn
        let directory: String

        init(pageSize: Int) throws {
            standIn = try AppStoreServerStandIn(configuration: AppStoreServerStandInConfiguration(
                issuerID: "57246542-96fe-1a63-e053-0824d011072a", keyID: "2X9R4HXF34", bundleID: "ai.screenrig.app", key: key,
                signer: signer, pageSize: pageSize))
            directory = ScratchFile.directory + "/appstore-sync-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try PEM.encode(key.pkcs8DER, label: "PRIVATE KEY").write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
            let app: JSONValue = ["bundle_id": "ai.screenrig.app", "environment": "local", "base_url": .string(standIn.baseURL),
                                  "issuer_id": "57246542-96fe-1a63-e053-0824d011072a", "key_id": "2X9R4HXF34",
                                  "private_key_file": "AuthKey.p8", "app_apple_id": 6_450_000_000]
            try (["apps": [app]] as JSONValue).compactText().write(toFile: directory + "/keys.json", atomically: true, encoding: .utf8)
            try PEM.encode(TestCertificateAuthority.shared.rootDER, label: "CERTIFICATE")
                .write(toFile: directory + "/root.pem", atomically: true, encoding: .utf8)
        }

        func environment(_ url: String, _ extra: [String: String] = [:]) -> [String: String] {
            var env = ["DATABASE_URL": url, "LEDGER_APPSTORE_API_KEYS": directory + "/keys.json",
                       "LEDGER_APPSTORE_EXTRA_ROOTS": directory + "/root.pem", "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory,
                       "LEDGER_LOG_LEVEL": "info", "LEDGER_PROJECTOR_POLL_INTERVAL": "0.2"]
            for (k, v) in extra { env[k] = v }
            return env
        }

        /// `count` TEST notifications, a minute apart from `secondsAgo` on, never delivered.
        func dropped(_ count: Int, secondsAgo: Double = 3_000) -> [String] {
            (0..<count).map { i in
                let uuid = UUID()
                let signed = Timestamp(microseconds: Int64((Date().timeIntervalSince1970 - secondsAgo + Double(i) * 60) * 1e6))!
                standIn.deliver(notification: signer.notification(type: "TEST", environment: "Sandbox", signedDate: signed,
                                                                  notificationUUID: uuid),
                                to: "http://127.0.0.1:9/unused", dropping: true)
                return uuid.uuidString.lowercased()
            }
        }

        func stop() {
            standIn.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// How many events of the log carry each notification UUID as their correlation.
    func copies(_ uuids: [String], in db: TestDatabase) throws -> [String: Int] {
        let connection = try db.connect()
        var counts: [String: Int] = [:]
        for row in try connection.query("""
            SELECT metadata->>'correlation_id', count(*) FROM events WHERE metadata->>'correlation_id' = ANY($1::text[]) GROUP BY 1
            """, [PostgresTextArray(uuids)]).rows {
            counts[try row.requireString(0)] = Int(try row.requireInt64(1))
        }
        return counts
    }

    @Test("a sync that crashes halfway through a page resumes from that page: every notification once, the run's counts exact")
    func crashHalfwayResumes() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let apple = try Apple(pageSize: 2)
        defer { apple.stop() }
        let uuids = apple.dropped(5)
        let url = try db.operatorURL("alice")
        let crashing = try LedgerBinary.start(["appstore", "sync", "run"],
                                              environment: apple.environment(url, ["LEDGER_FAULT_CRASH_AFTER_RECOVERED": "3"]))
        #expect(crashing.wait(timeout: 60) == 97, "stderr: \(crashing.errors)")
        #expect(try copies(uuids, in: db).values.reduce(0, +) == 3, "two pages' worth, the second half recorded")

        let again = try LedgerBinary.start(["appstore", "sync", "run", "--json"], environment: apple.environment(url))
        #expect(again.wait(timeout: 60) == 0, "stderr: \(again.errors)")
        let run = try #require(try JSONValue.parse(Array(again.output.utf8))["runs"]?[0])
        #expect(run["state"] == "succeeded" && run["pages"] == 3 && run["seen"] == 5 && run["recovered"] == 5, "\(run)")
        let counts = try copies(uuids, in: db)
        #expect(uuids.allSatisfy { counts[$0] == 1 }, "each once: \(counts)")

        // Recorded under the operator who ran it, as recovered from the history.
        let connection = try db.connect()
        let actors = try connection.query("""
            SELECT DISTINCT metadata->'actor'->>'id', metadata->>'source' FROM events WHERE metadata->>'correlation_id' = ANY($1::text[])
            """, [PostgresTextArray(uuids)]).rows.map { [try $0.requireString(0), try $0.requireString(1)] }
        #expect(actors == [["alice", "notification_history"]])

        let status = try LedgerBinary.start(["appstore", "sync", "status"], environment: apple.environment(url))
        #expect(status.wait(timeout: 30) == 0, "stderr: \(status.errors)")
        #expect(status.output.contains("ai.screenrig.app") && status.output.contains("succeeded"), "\(status.output)")
    }

    @Test("the active projector runs the sync on its schedule, as the projector's role: a dropped notification is recovered")
    func projectorRunsIt() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let apple = try Apple(pageSize: 20)
        defer { apple.stop() }
        let first = apple.dropped(1)
        let projector = try LedgerBinary.start(["project"], environment: apple.environment(db.projectorURL, ["LEDGER_APPSTORE_SYNC_EVERY": "10"]))
        defer {
            projector.kill(signal: SIGTERM)
            _ = projector.wait(timeout: 30)
        }
        #expect(Poll.until(timeout: 30) { (try? copies(first, in: db)[first[0]]) == 1 }, "stderr: \(projector.errors)")
        // The next run, ten seconds later, finds the next one.
        let second = apple.dropped(1, secondsAgo: 5)
        #expect(Poll.until(timeout: 40) { (try? copies(second, in: db)[second[0]]) == 1 }, "stderr: \(projector.errors)")
        #expect(projector.errors.contains("app store notification history synced") || projector.output.contains("app store notification history synced"))
    }
}
