import AppStoreServerAPI
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres

/// `ledger appstore reconcile`: the log's App Store subscriptions against Apple's status of
/// each (docs/appstore.md, "Reconciliation").
extension AppStoreCommand {
    static let reconcileUsage = """
        usage: ledger appstore reconcile [--org ID] [--app BUNDLE_ID] [--since T] [--dry-run] [--json]

        Asks Apple's Get All Subscription Statuses for each App Store subscription the log
        holds (of --org, or of every organization) with the keys of LEDGER_APPSTORE_API_KEYS,
        and records what Apple knows and the log does not, as the notification that was
        missed would have: a renewal, a failed renewal (billing retry, grace period), an
        expiry, a refund or a revocation, a refund reversed. Recorded under your login, each
        event keyed by what Apple said and when, so a second run records nothing more.
        Prints one line per subscription: the status and plan the log gives it, Apple's, and
        what is recorded. Exit 0, or 1 when a subscription could not be asked.

          --org ID          only this organization's subscriptions
          --app BUNDLE_ID   only with this app's key
          --since T         only subscriptions whose latest transaction expires at or after T
                            (ISO 8601 instant or day)
          --dry-run         say what would be recorded, plan by plan, and append nothing
          --json            one JSON object

        """

    static func reconcile(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["org", "app", "since"], boolean: ["dry-run", "json"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected \(args.positionals[0])") }
        let since = try args.value("since").map { text -> Timestamp in
            guard let t = Timestamp(dayOrInstant: text) else { throw UsageError("--since must be an ISO 8601 instant or day, got \(text)") }
            return t
        }
        let configurations = try environment.appStoreServerAPIConfigurations()
        guard !configurations.isEmpty else {
            throw UsageError("no key to ask Apple with: LEDGER_APPSTORE_API_KEYS names the In-App Purchase keys (docs/appstore-server-api.md, \"Configuration\")")
        }
        let url = try environment.databaseURL()
        let connections = try environment.databasePool(url, maximumConnections: 2)
        let store = EventStore(conninfo: connections.directConninfo, connections: connections)
        defer { store.close() }
        let clients = configurations.map { AppStoreServerAPIClient(configuration: $0, clock: { Date() }) }
        defer { for client in clients { client.close() } }
        let login = try connections.read { try $0.query("SELECT session_user::text").rows.first?.requireString(0) } ?? ""
        let reconciler = AppStoreReconciler(clients: clients, connections: connections, store: store,
                                            products: AppStoreProducts(try environment.appStorePlanProducts()),
                                            actor: Actor(.operator, login), now: SystemClock.now)
        let dryRun = args.flag("dry-run")
        let lines = try reconciler.run(orgID: args.value("org"), bundleID: args.value("app"), since: since, dryRun: dryRun)
        let failed = lines.filter { $0.outcome == "error" }.count
        if args.flag("json") {
            print(JSONValue.object(["dry_run": .bool(dryRun), "subscriptions": try JSONValueEncoder().encode(lines)]).compactText())
        } else {
            for line in lines {
                let before = "\(line.before?.rawValue ?? "not in the log") (\(line.planBefore?.rawValue ?? "no plan"))"
                let after = line.after.map { "\($0.rawValue) (\(line.planAfter?.rawValue ?? "no plan"))" } ?? "?"
                let what = line.events.isEmpty ? "" : (line.outcome == "would_record" ? ": would record " : ": records ") + line.events.joined(separator: ", ")
                print("\(line.orgID)  \(line.originalTransactionID) (\(line.environment)): \(line.outcome): \(before) → \(after)\(what) — \(line.why)")
            }
            let changed = lines.filter { ["recorded", "would_record"].contains($0.outcome) }.count
            print("\(lines.count) subscriptions asked: \(lines.filter { $0.outcome == "agrees" }.count) agree with Apple, "
                  + "\(changed) \(dryRun ? "would change (nothing appended: --dry-run)" : "changed"), \(failed) could not be asked")
        }
        return failed > 0 ? 1 : 0
    }
}
