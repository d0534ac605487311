import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres

/// `ledger stripe reconcile` and `ledger stripe sync status`: the Stripe events sync
/// (docs/web-checkout.md, "Nothing the processor sent is lost"), run by hand or shown.
extension StripeCommand {
    static let syncUsage = """
        usage: ledger stripe reconcile --app ID [--since T] [--dry-run] [--json]
               ledger stripe sync status [--json]

        The active projector lists each app's Stripe events (of the types the rules read)
        every LEDGER_STRIPE_SYNC_EVERY seconds, with the app's key of
        LEDGER_STRIPE_API_KEYS, and records each the log does not hold through the same
        rules as a delivered webhook, attributed to the run (metadata source reconcile,
        run_id). Stripe keeps events 30 days.

        reconcile    one run now for the app, under your login: from --since (an ISO 8601
                     instant or day), else 15 minutes before the last success started,
                     else a day back. Prints what Stripe listed and what was recorded.
                     --dry-run records nothing and lists what would be. Exit 0 when it
                     finished, 1 when it stopped on an error.
        sync status  per app: the last run, the last success, the events recovered, and
                     whether the sync is overdue (last success older than twice
                     LEDGER_STRIPE_SYNC_EVERY). Needs no key.

        """

    static func reconcile(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["app", "since"], boolean: ["dry-run", "json"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected \(args.positionals[0])") }
        guard let app = try args.value("app") else { throw UsageError("--app is required: the app whose Stripe events to reconcile") }
        let since = try args.value("since").map { text -> Timestamp in
            guard let t = Timestamp(dayOrInstant: text) else { throw UsageError("--since must be an ISO 8601 instant or day, got \(text)") }
            return t
        }
        let url = try environment.databaseURL()
        let connections = try environment.databasePool(url, maximumConnections: 2)
        defer { connections.closeIdle() }
        let store = EventStore(conninfo: connections.directConninfo, connections: connections)
        defer { store.close() }
        let login = try connections.read { try $0.query("SELECT session_user::text").rows.first?.requireString(0) } ?? ""
        let syncs = try environment.stripeEventsSyncs(connections: connections, store: store, actor: Actor(.operator, login))
        defer { for sync in syncs { sync.client.close() } }
        guard let sync = syncs.first(where: { $0.appID == app }) else {
            throw UsageError("app \(app) has no Stripe key in LEDGER_STRIPE_API_KEYS (\(environment.string(.stripeAPIKeys) ?? "unset")): the reconcile asks Stripe with it")
        }
        do {
            let report = try sync.run(since: since, dryRun: args.flag("dry-run"))
            if args.flag("json") {
                var object = (try JSONValueEncoder().encode(report.run)).objectValue ?? [:]
                object["recorded"] = .array(report.recovered.map(JSONValue.string))
                object["refused"] = .object(report.refused.mapValues(JSONValue.string))
                object["incomplete"] = .bool(report.incomplete)
                print(JSONValue.object(object).compactText())
            } else {
                let verb = report.run.dryRun ? "would record" : "recorded"
                print("app \(app): Stripe listed \(report.run.seen) events since \(report.run.since.iso8601); \(verb) \(report.recovered.count) the log did not hold"
                      + (report.refused.isEmpty ? "" : "; refused \(report.refused.count)") + (report.incomplete ? " (more remain: run again)" : ""))
                for id in report.recovered { print("  \(verb): \(id)") }
                for (id, code) in report.refused.sorted(by: { $0.key < $1.key }) { print("  refused: \(id) (\(code))") }
            }
            return 0
        } catch let failure as StripeSyncFailure {
            FileHandle.standardError.write(Data("ledger stripe reconcile: \(failure.code): \(failure.message)\n".utf8))
            return 1
        }
    }

    static func syncStatus(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: [], boolean: ["json"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected \(args.positionals[0])") }
        let connections = try environment.databasePool(environment.databaseURL(), maximumConnections: 2)
        defer { connections.closeIdle() }
        let status = try StripeSyncStatus.read(connections: connections, every: try environment.stripeSyncSettings().every, now: SystemClock.now())
        if args.flag("json") {
            print(try JSONValueEncoder().encode(status).compactText())
        } else if status.apps.isEmpty {
            print("no Stripe events sync has run (LEDGER_STRIPE_API_KEYS beside the projector, or `ledger stripe reconcile`)")
        } else {
            print(TextTable.lines(["app", "last run", "since", "seen", "recorded", "outcome", "last success", "recovered", "overdue"],
                                  status.apps.map { a in
                [a.appID, a.last.started.iso8601, a.last.since.iso8601, String(a.last.seen), String(a.last.recovered),
                 a.last.finished == nil ? "running" : a.last.failureCode ?? (a.last.dryRun ? "dry run" : "ok"),
                 a.lastSucceeded?.finished?.iso8601 ?? "never", String(a.recovered), a.overdue ? "yes" : "no"]
            }).joined(separator: "\n"))
        }
        return 0
    }
}
