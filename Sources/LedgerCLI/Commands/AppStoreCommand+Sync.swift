import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres

/// `ledger appstore sync status|run`: the notification history sync (docs/appstore.md,
/// "Recovery: the notification history sync"), shown or run by hand.
extension AppStoreCommand {
    static let syncUsage = """
        usage: ledger appstore sync status [--json]
               ledger appstore sync run [--app BUNDLE_ID] [--since T] [--json]

        The active projector asks Apple's notification history for each app of
        LEDGER_APPSTORE_API_KEYS every LEDGER_APPSTORE_SYNC_EVERY seconds and records each
        notification the log does not hold, through the same rules as one Apple delivered,
        attributed to the run (metadata source notification_history, sync_id).

        status  for each app and environment: the last run (its state, window, pages, what it
                found and recovered), the last success, the notifications recovered by the
                runs kept, and whether the sync is overdue (last success older than twice
                LEDGER_APPSTORE_SYNC_EVERY). Needs no key.
        run     runs one sync now for each app of LEDGER_APPSTORE_API_KEYS (or --app),
                resuming a run that was cut off, recorded under your login. Exit 0 when
                each finished, 1 when one stopped on an error (the next run resumes it).

          --app BUNDLE_ID   only this app
          --since T         ask a window from T (ISO 8601 instant or day) to now instead of
                            going on from the last run, within Apple's retention (180 days
                            in production, 30 in the sandbox)
          --json            one JSON object

        LEDGER_FAULT_CRASH_AFTER_RECOVERED=N (tests only): exit with status 97 right after
        recording the Nth notification, before its page's progress is written.

        """

    static func sync(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        guard let what = arguments.first, ["status", "run"].contains(what) else { throw UsageError("sync what? (status or run)") }
        let args = try Arguments(Array(arguments.dropFirst()), valued: what == "run" ? ["app", "since"] : [], boolean: ["json"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected \(args.positionals[0])") }
        let url = try environment.databaseURL()
        let connections = try environment.databasePool(url, maximumConnections: 2)
        defer { connections.closeIdle() }
        if what == "status" {
            let status = try AppStoreSyncStatus.read(connections: connections, every: try environment.appStoreSyncSettings().every,
                                                     now: SystemClock.now())
            print(args.flag("json") ? try JSONValueEncoder().encode(status).compactText() : statusText(status))
            return 0
        }
        let since = try args.value("since").map { text -> Timestamp in
            guard let t = Timestamp(dayOrInstant: text) else { throw UsageError("--since must be an ISO 8601 instant or day, got \(text)") }
            return t
        }
        let store = EventStore(conninfo: connections.directConninfo, connections: connections)
        defer { store.close() }
        let login = try connections.read { try $0.query("SELECT session_user::text").rows.first?.requireString(0) } ?? ""
        var syncs = try environment.appStoreHistorySyncs(connections: connections, store: store, actor: Actor(.operator, login))
        defer { for sync in syncs { sync.client.close() } }
        guard !syncs.isEmpty else {
            throw UsageError("no app to sync: LEDGER_APPSTORE_API_KEYS names the In-App Purchase keys to ask Apple with (docs/appstore-server-api.md, \"Configuration\")")
        }
        if let app = args.value("app") {
            syncs = syncs.filter { $0.bundleID == app }
            guard !syncs.isEmpty else { throw UsageError("LEDGER_APPSTORE_API_KEYS has no app \(app)") }
        }
        let crashAfter = environment.values["LEDGER_FAULT_CRASH_AFTER_RECOVERED"].flatMap { Int($0) }
        var reports: [JSONValue] = []
        var failed = false
        for sync in syncs {
            do {
                let report = try sync.run(since: since, afterRecording: { count in
                    if let crashAfter, count >= crashAfter { exit(97) }
                })
                reports.append(try JSONValueEncoder().encode(report.run))
                if !args.flag("json") {
                    print("\(sync.bundleID) (\(sync.environment)): \(report.resumed ? "resumed " : "")sync \(report.run.id.uuidString.lowercased()) "
                          + "over \(report.run.windowStart.iso8601) – \(report.run.windowEnd.iso8601): \(report.run.pages) pages, "
                          + "\(report.run.seen) notifications in Apple's history, \(report.run.recovered) recovered")
                    for uuid in report.recovered { print("  recovered \(uuid)") }
                    for (uuid, code) in report.refused.sorted(by: { $0.key < $1.key }) { print("  refused \(uuid): \(code)") }
                }
            } catch let failure as AppStoreSyncFailure {
                failed = true
                reports.append(["bundle_id": .string(sync.bundleID), "environment": .string(sync.environment),
                                "sync_id": failure.syncID.map { .string($0.uuidString.lowercased()) } ?? .null, "failure_code": .string(failure.code),
                                "failure": .string(failure.message)])
                if !args.flag("json") {
                    print("\(sync.bundleID) (\(sync.environment)): sync \(failure.syncID?.uuidString.lowercased() ?? "not begun") stopped: \(failure)"
                          + (failure.final ? " (the next run asks the window again)" : " (the next run resumes it)"))
                }
            }
        }
        if args.flag("json") { print(JSONValue.object(["runs": .array(reports)]).compactText()) }
        return failed ? 1 : 0
    }

    static func statusText(_ status: AppStoreSyncStatus) -> String {
        guard !status.apps.isEmpty else {
            return "no notification history sync has run: the active projector runs one for each app of LEDGER_APPSTORE_API_KEYS "
                + "every \(AppStoreSyncStatus.duration(status.every)) (docs/appstore.md, \"Recovery\")"
        }
        let now = SystemClock.now()
        let rows = status.apps.map { app -> [String] in
            [app.bundleID, app.environment, app.last.state + (app.overdue ? " (overdue)" : ""),
             app.last.started.iso8601, "\(app.last.windowStart.iso8601) – \(app.last.windowEnd.iso8601)",
             String(app.last.pages), String(app.last.seen), String(app.last.recovered),
             app.sinceSuccess(now: now).map { AppStoreSyncStatus.duration($0) + " ago" } ?? "never",
             String(app.recovered)]
        }
        var lines = TextTable.lines(["app", "environment", "last run", "started", "window", "pages", "seen", "recovered",
                                     "last success", "recovered (kept runs)"], rows, rightAligned: [5, 6, 7, 9])
        for app in status.apps {
            if let code = app.last.failureCode { lines.append("\(app.bundleID) (\(app.environment)): the last run stopped on \(code): \(app.last.failure ?? "")") }
        }
        lines += status.warnings(now: now).map { "warning: " + $0 }
        return lines.joined(separator: "\n")
    }
}
