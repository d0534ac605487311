import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres

/// `ledger find`: the console's search box on the command line (`DirectorySearchQuery`).
public enum FindCommand: LedgerCommand {
    public static let name = "find"
    public static let summary = "Find anything by id, id prefix or name: payers, projects, organizations, apps, users, journal entries, App Store transactions, events, streams."
    public static let usage = """
        usage: ledger find TEXT... [--kind KIND] [--limit N] [--json]

        What the console's search box finds, ranked: the exact id first, then ids that start
        with TEXT, then names (or a word of a name) that start with it, then names that hold
        it; the latest activity first among equals, then the id. Case does not matter.

          payers, projects,     by id, the start of an id, or any part of a name
          organizations, apps
          users                 by id or its start (as typed, in lower or upper case)
          journal entries       by id or its start (je_12_0, je_12)
          App Store transactions by original transaction id (organizations) or
                                transaction id (StoreKit purchases), or its start
          events, streams       a position, an event id, a stream name, whole

          --kind KIND   look among one kind: payer, project, org, app, user, entry,
                        transaction, event or stream (TEXT may also be KIND:TEXT,
                        e.g. payer:acme)
          --limit N     at most N matches (default 50, at most 200)
          --json        one JSON object: the matches and, per kind, how many more matched

        `ledger list KIND --filter TEXT` pages through every match of a kind.
        Exit status: 0 found; 1 nothing matched; 2 usage error. Uses DATABASE_URL.
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["kind", "limit"], boolean: ["json"])
        let text = args.positionals.joined(separator: " ")
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("TEXT is required") }
        let kind = try args.value("kind").map { word -> SearchKind in
            guard let kind = SearchKind(named: word) else {
                throw UsageError("--kind is one of \(SearchKind.allCases.map(\.rawValue).joined(separator: ", ")), got \(word)")
            }
            return kind
        }
        let limit = try args.int("limit", default: DirectorySearchQuery.defaultLimit)
        guard (1...DirectorySearchQuery.maximumLimit).contains(limit) else {
            throw UsageError("--limit takes 1 to \(DirectorySearchQuery.maximumLimit), got \(limit)")
        }
        let connections = try environment.databasePool(environment.databaseURL(), maximumConnections: 1)
        defer { connections.closeIdle() }
        let found = try QueryRunner(connections: connections, clock: SystemClock.now)
            .answer(DirectorySearchQuery(text, kind: kind, limit: limit), as: .operator("ledger find")) ?? DirectorySearch(hits: [], more: [:])
        if args.flag("json") {
            print(try json(found).compactText())
        } else if found.hits.isEmpty {
            print("nothing matches \(text.debugDescription)")
        } else {
            for line in TextTable.lines(["kind", "match", "name", "rank", "last_position", "last_at"], found.hits.map { hit in
                [hit.kind.rawValue, hit.summary, hit.name ?? "", hit.rank.label, hit.lastPosition.map(String.init) ?? "",
                 hit.lastOccurredAt?.iso8601 ?? ""]
            }, rightAligned: [4]) { print(line) }
            for kind in SearchKind.allCases {
                guard let more = found.more[kind] else { continue }
                let count = more.exact ? "\(more.count)" : "more than \(more.count - 1)"
                let hint = kind.directoryKind.map { "`ledger list \($0.plural) --filter \(DirectorySearchQuery(text).scope.text.debugDescription)` lists them" }
                    ?? "type more of the id"
                print("\(count) \(kind.rawValue) matches in all: \(hint)")
            }
        }
        return found.hits.isEmpty ? 1 : 0
    }

    static func json(_ found: DirectorySearch) throws -> JSONValue {
        .object([
            "hits": .array(found.hits.map { hit in
                var object: [String: JSONValue] = ["kind": .string(hit.kind.rawValue), "id": .string(hit.id), "match": .string(hit.summary),
                                                   "rank": .string(hit.rank.label)]
                if let name = hit.name { object["name"] = .string(name) }
                switch hit.target {
                case .user(let app, let user):
                    object["app"] = .string(app); object["id"] = .string(user)
                case .entry(let id, let account):
                    object["id"] = .string(id); object["account"] = .string(account)
                case .subscription(_, let org):
                    object["org"] = .string(org)
                case .purchase(let id, let original, let app, let user):
                    object["id"] = .string(id); object["original_transaction_id"] = .string(original)
                    object["app"] = .string(app); object["user"] = .string(user)
                default: break
                }
                if let p = hit.lastPosition { object["last_position"] = .integer(p) }
                if let at = hit.lastOccurredAt { object["last_occurred_at"] = .string(at.iso8601) }
                return .object(object)
            }),
            "more": .object(Dictionary(uniqueKeysWithValues: found.more.map { kind, count in
                (kind.rawValue, JSONValue.object(["count": .integer(Int64(count.count)), "exact": .bool(count.exact)]))
            })),
        ])
    }
}
