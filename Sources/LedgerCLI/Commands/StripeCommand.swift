import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres

/// `ledger stripe …`: the payment processor's side of web checkout (docs/web-checkout.md).
public enum StripeCommand: LedgerCommand {
    public static let name = "stripe"
    public static let summary = "Recover Stripe events a webhook did not bring (`ledger stripe reconcile`), show the sync (`ledger stripe sync status`), or list the events no user could be found for (`ledger stripe unattributed`)."
    public static let usage = syncUsage + "\n" + unattributedUsage

    static let unattributedUsage = """
        usage: ledger stripe unattributed [--app ID] [--limit N] [--json]

        The Stripe events recorded for web checkout that name no user (no checkout
        client_reference_id, no metadata.user_id) and share no Stripe id (customer,
        subscription, payment intent, invoice, charge) with one that does: recorded all the
        same, and listed here to be attributed (docs/catalog.md, W3). Newest first.

          --app ID     only this app's
          --limit N    at most N (default 100, at most 1000)
          --json       one JSON object

        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        guard let sub = arguments.first else { throw UsageError("what to do? (reconcile, sync status or unattributed)") }
        if sub == "reconcile" { return try reconcile(arguments: Array(arguments.dropFirst()), environment: environment) }
        if sub == "sync" {
            guard arguments.dropFirst().first == "status" else { throw UsageError("sync what? (status)") }
            return try syncStatus(arguments: Array(arguments.dropFirst(2)), environment: environment)
        }
        guard sub == "unattributed" else { throw UsageError("unknown stripe command \(sub)") }
        let args = try Arguments(Array(arguments.dropFirst()), valued: ["app", "limit"], boolean: ["json"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected \(args.positionals[0])") }
        let limit = try args.value("limit").map { text -> Int in
            guard let n = Int(text), (1...1000).contains(n) else { throw UsageError("--limit must be 1 to 1000, got \(text)") }
            return n
        } ?? 100
        let connections = try environment.databasePool(environment.databaseURL(), maximumConnections: 2)
        defer { connections.closeIdle() }
        let runner = QueryRunner(connections: connections, clock: SystemClock.now)
        let found = try runner.answer(UnattributedStripeEventsQuery(app: args.value("app"), limit: limit), as: .operator("ledger stripe")) ?? []
        if args.flag("json") {
            print(JSONValue.object(["events": .array(found.map { u in
                ["position": .integer(u.position), "app_id": .string(u.event.appID), "event_id": .string(u.event.eventID),
                 "type": .string(u.event.eventType), "created": .string(u.event.created.iso8601), "fact": .string(u.event.fact.kind),
                 "links": .array(u.event.fact.links.map(JSONValue.string))]
            })]).compactText())
        } else if found.isEmpty {
            print("every Stripe event recorded reaches a user")
        } else {
            print(TextTable.lines(["position", "app", "event", "type", "created", "stripe ids"], found.map { u in
                [String(u.position), u.event.appID, u.event.eventID, u.event.eventType, u.event.created.iso8601,
                 u.event.fact.links.joined(separator: " ")]
            }, rightAligned: [0]).joined(separator: "\n"))
        }
        return 0
    }
}
