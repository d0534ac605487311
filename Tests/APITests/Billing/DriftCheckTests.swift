import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres
import ProjectionEngine
import Projections
import Synchronization
import Testing
import TestSupport
import Workers

/// Issue 50, finding 13: a projection row changed by hand shows itself. The drift check
/// (docs/operations.md, "Drift") folds a sample of accounts again from the log with the
/// billing fold and compares them with the live rows; what differs is recorded, named on
/// the operations `/readyz` as a warning (the service stays ready) and counted on `/metrics`.
@Suite("Drift: billing rows changed by hand are found by folding accounts again from the log", .bounded)
struct DriftCheckTests {
    /// Two payers, three projects (one self-paying, one moved from a payer to the other),
    /// holds captured and released on a payer's pool by two of its projects, corrections
    /// of a capture and of a credit, usage and closed months with charges: every way an
    /// entry reaches a balance, so that folding an account apart must agree with the
    /// projection that folded the whole log.
    static func ledger(_ f: BillingFixture) throws {
        try f.prices(unit: 10, storagePerGiB: 0)
        try f.payer("acme")
        try f.payer("beta")
        try f.project("web", payer: "acme")
        try f.project("app", payer: "acme")
        try f.project("solo")
        _ = try f.credit(.payer("acme"), .grant, 1_000_000)
        _ = try f.credit(.payer("beta"), .plan, 50_000)
        let pack = try f.credit(.project("solo"), .purchase, 200_000)
        try f.append(HoldPlaced(holdID: "h1", projectID: "web", pool: .payer("acme"), amount: Millicredits(2_500), description: "export"),
                     stream: "hold-h1")
        let capture = try f.append(HoldCaptured(holdID: "h1", amount: Millicredits(2_000)), stream: "hold-h1")
        try f.append(HoldPlaced(holdID: "h2", projectID: "app", pool: .payer("acme"), amount: Millicredits(1_000), description: "render"),
                     stream: "hold-h2")
        try f.append(HoldReleased(holdID: "h2"), stream: "hold-h2")
        try f.append(HoldPlaced(holdID: "h3", projectID: "solo", pool: .project("solo"), amount: Millicredits(700), description: "open"),
                     stream: "hold-h3")
        try f.append(EntryCorrected(entryID: JournalEntryID(position: capture.position, index: 0).description, amount: Millicredits(500),
                                    reason: "captured too much"), stream: "payer-acme", corrects: capture.position)
        try f.append(EntryCorrected(entryID: JournalEntryID(position: pack.position, index: 0).description, amount: Millicredits(-10_000),
                                    reason: "pack was smaller"), stream: "project-solo", corrects: pack.position)
        try f.usage("web", .apiRequests, 20_000, at: "2026-01-10T00:00:00Z")
        try f.usage("app", .apiRequests, 3_000, at: "2026-01-11T00:00:00Z")
        try f.usage("solo", .apiRequests, 15_000, at: "2026-01-12T00:00:00Z")
        _ = try f.closeMonth(.payer("acme"), "2026-01")
        _ = try f.closeMonth(.project("solo"), "2026-01")
        try f.append(ProjectFundingChanged(projectID: "app", funding: .payer("beta"), effectiveAt: t("2026-02-01T00:00:00Z")), stream: "project-app")
        try f.usage("app", .apiRequests, 12_000, at: "2026-02-05T00:00:00Z")
        _ = try f.closeMonth(.payer("beta"), "2026-02")
    }

    static let accounts: Set = ["payer:acme", "payer:beta", "project:web", "project:app", "project:solo"]

    /// The job as `ledger project` runs it, on the projector's login, its look taken by hand.
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func job(_ f: BillingFixture, sample: Int = 20, logs: Lines? = nil) -> (DriftCheckJob, ProjectionDriftCheck) {
        let check = ProjectionDriftCheck(connections: PostgresPool(conninfo: f.service.db.projectorURL, maximumConnections: 2),
                                         settings: .init(every: 300, sample: sample), now: f.service.clock.read)
        let job = DriftCheckJob(check: check, isActive: { true }, log: { level, message, fields in
            logs?.append("\(level.rawValue) \(message) \(fields.sorted { $0.key < $1.key })")
        })
        return (job, check)
    }

    static func metrics(_ f: BillingFixture) -> String {
        String(decoding: (try? f.service.operationsGet("/metrics").body) ?? [], as: UTF8.self)
    }

    static func warnings(_ f: BillingFixture) -> [String] {
        ((try? f.service.operationsJSON("/readyz").1["warnings"]?.arrayValue) ?? nil)?.compactMap(\.stringValue) ?? []
    }

    @Test("an untouched database: every account folded apart agrees with the live rows, and nothing is reported")
    func untouched() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try Self.ledger(f)
        let (job, check) = Self.job(f)
        let billing = BillingProjection()
        let inspector = try f.service.db.connect()
        func checksums() throws -> [String] {
            try billing.tables.map { try ProjectionSchema.checksum(schema: billing.schema, table: $0, on: inspector) }
        }
        let before = try checksums()
        job.tick()
        let latest = try #require(try DriftChecks(connections: check.connections).latest().first)
        let completed = try #require(latest.lastCompleted)
        #expect(completed.failureCode == nil, "\(completed.failure ?? "")")
        #expect(Set(completed.accounts) == Self.accounts, "every account of the ledger is in a sample of 20")
        #expect(completed.drifted.isEmpty && completed.findings.isEmpty, "\(String(describing: completed.findings))")
        #expect(completed.events > 0 && completed.skipped.isEmpty, "\(String(describing: completed.skipped))")
        #expect(completed.position == (try BillingReadModel(connections: f.service.context.connections).progress()?.position))
        #expect(Poll.until(timeout: 20) {
            Self.metrics(f).contains("ledger_projection_drift_checked_accounts{projection=\"billing\"} 5")
        }, "\(Self.metrics(f))")
        let metrics = Self.metrics(f)
        #expect(metrics.contains("ledger_projection_drift_accounts{projection=\"billing\"} 0"))
        #expect(metrics.contains("ledger_projection_drift_last_check_failed{projection=\"billing\"} 0"))
        #expect(metrics.contains("ledger_projection_drift_last_check_timestamp_seconds{projection=\"billing\"}"))
        let (status, readiness) = try f.service.operationsJSON("/readyz")
        #expect(status == 200 && readiness["warnings"] == nil, "\(readiness)")
        #expect(readiness["drift_check"]?["projections"]?[0]?["last_completed"]?["drifted"] == .array([]))
        // A second look agrees too, and the live tables are as they were: a check writes
        // nothing but its record (its fold goes to temporary tables, rolled back).
        job.tick()
        #expect(try DriftChecks(connections: check.connections).latest().first?.lastCompleted?.drifted == [])
        #expect(try checksums() == before)
    }

    @Test("a balance and a journal entry changed by hand: both accounts named on /readyz, /metrics and in the job's table, rechecked until fixed")
    func tampered() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try Self.ledger(f)
        let logs = Lines()
        let (job, check) = Self.job(f, logs: logs)
        let superuser = try PostgresConnection(conninfo: f.service.db.superuserURL)
        try superuser.query("UPDATE proj_billing.balances SET credit_grant = credit_grant + 5000 WHERE account = 'payer:acme'")
        try superuser.query("UPDATE proj_billing.journal SET description = 'edited by hand' WHERE account = 'project:web' AND kind = 'hold_capture'")
        job.tick()

        let latest = try #require(try DriftChecks(connections: check.connections).latest().first?.lastCompleted)
        #expect(Set(latest.drifted) == ["payer:acme", "project:web"], "\(String(describing: latest.findings))")
        let acme = latest.findings(of: "payer:acme")
        let posted = try #require(acme.first { $0.figure == "posted" }, "\(String(describing: acme))")
        let live = try #require(Int(posted.live)), refolded = try #require(Int(posted.refolded))
        #expect(live - refolded == 5_000, "\(String(describing: posted))")
        #expect(acme.contains { $0.figure == "balance payer:acme credit_grant" && $0.live == "1005000" && $0.refolded == "1000000" })
        let web = latest.findings(of: "project:web")
        #expect(web.count == 1 && web[0].figure.hasSuffix(" description") && web[0].live == "edited by hand"
                && web[0].refolded == "capture of hold h1", "\(String(describing: web))")
        #expect(logs.all.contains { $0.hasPrefix("warning projection differs from the log") && $0.contains("payer:acme") })

        // The job's own table, as an operator reads it.
        let rows = try superuser.query("""
            SELECT f.account FROM projection_drift_findings f JOIN projection_drift_checks c USING (check_id)
            WHERE c.check_id = $1::uuid ORDER BY f.ordinal
            """, [latest.id.uuidString]).rows.map { try $0.requireString(0) }
        #expect(Set(rows) == ["payer:acme", "project:web"])

        // /readyz: still ready, a warning naming each account; /metrics counts them.
        #expect(Poll.until(timeout: 20) { Self.warnings(f).contains { $0.contains("account payer:acme") } }, "\(Self.warnings(f))")
        let (status, readiness) = try f.service.operationsJSON("/readyz")
        #expect(status == 200 && readiness["status"] == "ready")
        let warnings = Self.warnings(f)
        #expect(warnings.contains { $0.contains("account payer:acme: posted is \(posted.live) in the live rows and \(posted.refolded) folded again from the log") },
                "\(warnings)")
        #expect(warnings.contains { $0.contains("account project:web") })
        #expect(try f.service.json("/readyz").1["status"] == "ready", "the public port: ready, and no account named")
        #expect(Poll.until(timeout: 20) { Self.metrics(f).contains("ledger_projection_drift_accounts{projection=\"billing\"} 2") })

        // A sample of one still compares both: an account found drifted is checked again
        // at every check, whatever else is sampled, until it is found clean.
        let (small, _) = Self.job(f, sample: 1)
        small.tick()
        let again = try #require(try DriftChecks(connections: check.connections).latest().first?.lastCompleted)
        #expect(again.id != latest.id && Set(again.drifted) == ["payer:acme", "project:web"] && again.accounts.count == 3, "\(String(describing: again.accounts))")

        // Put back by hand: the next check finds both clean, and the warnings go.
        try superuser.query("UPDATE proj_billing.balances SET credit_grant = credit_grant - 5000 WHERE account = 'payer:acme'")
        try superuser.query("UPDATE proj_billing.journal SET description = 'capture of hold h1' WHERE account = 'project:web' AND kind = 'hold_capture'")
        small.tick()
        #expect(try DriftChecks(connections: check.connections).latest().first?.lastCompleted?.drifted == [])
        #expect(Poll.until(timeout: 20) { Self.metrics(f).contains("ledger_projection_drift_accounts{projection=\"billing\"} 0") })
        #expect(Poll.until(timeout: 20) { !Self.warnings(f).contains { $0.contains("differs from the log") } })
    }

    @Test("a journal entry deleted by hand is a difference too; a replay under way skips a check without losing what was found")
    func insertedAndDeleted() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try Self.ledger(f)
        let (job, check) = Self.job(f)
        let superuser = try PostgresConnection(conninfo: f.service.db.superuserURL)
        try superuser.query("DELETE FROM proj_billing.journal WHERE account = 'project:solo' AND kind = 'correction'")
        job.tick()
        let found = try #require(try DriftChecks(connections: check.connections).latest().first?.lastCompleted)
        #expect(found.drifted == ["project:solo"], "\(String(describing: found.findings))")
        #expect(found.findings.contains { $0.figure.hasPrefix("journal je_") && $0.live == "absent" && $0.refolded == "correction -10000" },
                "\(String(describing: found.findings))")

        // While a rebuild holds its lock, the check is skipped (recorded, benign), and the
        // drift found before still shows.
        let rebuild = try PostgresConnection(conninfo: f.service.db.projectorURL)
        try rebuild.query("SELECT pg_advisory_lock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.rebuild])
        job.tick()
        let latest = try #require(try DriftChecks(connections: check.connections).latest().first)
        #expect(latest.last.failureCode == "rebuild_running" && latest.lastCompleted?.drifted == ["project:solo"])
        try rebuild.query("SELECT pg_advisory_unlock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.rebuild])
        #expect(Poll.until(timeout: 20) { Self.warnings(f).contains { $0.contains("account project:solo") } }, "\(Self.warnings(f))")
        #expect(!Self.warnings(f).contains { $0.contains("stopped on") }, "a skipped check is no failure")
    }

    @Test("`ledger project` runs the check on its schedule as the projector's login, and `ledger projections` names the account")
    func projectorRunsIt() throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try Self.ledger(f)
        // One active projector per database: the test's own steps aside for the binary.
        f.stopProjector()
        let superuser = try PostgresConnection(conninfo: f.service.db.superuserURL)
        try superuser.query("UPDATE proj_billing.balances SET hold_held = hold_held + 1 WHERE account = 'project:solo'")
        let environment = ["DATABASE_URL": f.service.db.projectorURL, "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory,
                           "LEDGER_LOG_LEVEL": "info", "LEDGER_PROJECTOR_POLL_INTERVAL": "0.2", "LEDGER_DRIFT_CHECK_EVERY": "10",
                           "LEDGER_DRIFT_CHECK_SAMPLE": "5"]
        let projector = try LedgerBinary.start(["project"], environment: environment)
        defer {
            projector.kill(signal: SIGTERM)
            _ = projector.wait(timeout: 30)
        }
        let checks = DriftChecks(connections: f.service.context.connections)
        #expect(Poll.until(timeout: 30) { (try? checks.latest().first?.lastCompleted?.drifted) == ["project:solo"] },
                "stderr: \(projector.errors)")
        let held = try #require(try checks.latest().first?.lastCompleted?.findings(of: "project:solo").first { $0.figure == "held" })
        #expect(held.live == "701" && held.refolded == "700")
        #expect(Poll.until(timeout: 20) { (projector.errors + projector.output).contains("projection differs from the log") })

        let listed = try LedgerBinary.start(["projections"], environment: ["DATABASE_URL": f.service.db.apiURL,
                                                                          "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory])
        #expect(listed.wait(timeout: 30) == 1, "stderr: \(listed.errors)")
        #expect(listed.output.contains("billing drift check: 1 of 5 accounts DIFFER from the log"), "\(listed.output)")
        #expect(listed.output.contains("project:solo held: live 701, folded from the log 700"), "\(listed.output)")
    }
}
