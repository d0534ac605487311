import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices
import Postgres

/// `ledger list`: the console's lists on the command line (`DirectoryListQuery`).
public enum ListCommand: LedgerCommand {
    public static let name = "list"
    public static let summary = "List payers, projects, organizations, apps or users page by page, by name or by last activity."
    public static let usage = """
        usage: ledger list (payers | projects | orgs | apps | users) [--sort name|activity]
                           [--order asc|desc] [--filter TEXT] [--cursor C] [--limit N] [--json]

        One page of the kind: id, name and last activity (the position and time of the latest
        event on its own stream: payer-ID, project-ID, org-ID, app-ID); a user's is the
        position of their latest purchase or web checkout fact. Users have no name: by name
        means by app, then user id.

          --sort name|activity   the order (default name)
          --order asc|desc       default asc by name, desc (the latest first) by activity
          --filter TEXT          only those the search matches: an id, its start or any part
                                 of a name, any case; for users the start of a user id
                                 (a filter orders at most the 1,000 best matches)
          --cursor C             the page after the one that printed C
          --limit N              at most N a page (default 50, at most 500)
          --json                 one JSON object: the items and next_cursor (null on the last)

        The last line says how to read on. Exit status: 0; 2 usage error (a cursor of
        another list included). Uses DATABASE_URL.
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["sort", "order", "filter", "cursor", "limit"], boolean: ["json"])
        guard args.positionals.count == 1, let kind = DirectoryKind(named: args.positionals[0]) else {
            throw UsageError("name one kind: \(DirectoryKind.allCases.map(\.plural).joined(separator: ", "))")
        }
        guard let sort = DirectoryListQuery.Sort(rawValue: args.value("sort") ?? "name") else {
            throw UsageError("--sort is name or activity, got \(args.value("sort") ?? "")")
        }
        let descending: Bool?
        switch args.value("order") {
        case nil: descending = nil
        case "asc": descending = false
        case "desc": descending = true
        case let other?: throw UsageError("--order is asc or desc, got \(other)")
        }
        let limit = try args.int("limit", default: DirectoryListQuery.defaultLimit)
        let query: DirectoryListQuery
        do {
            query = try DirectoryListQuery(kind, sort: sort, descending: descending, filter: args.value("filter"), cursor: args.value("cursor"),
                                           limit: limit)
        } catch {
            throw UsageError(error.description)
        }
        let connections = try environment.databasePool(environment.databaseURL(), maximumConnections: 1)
        defer { connections.closeIdle() }
        let page = try QueryRunner(connections: connections, clock: SystemClock.now).answer(query, as: .operator("ledger list"))
            ?? DirectoryPage(items: [], next: nil)
        if args.flag("json") {
            print(try json(page).compactText())
            return 0
        }
        if page.items.isEmpty { print("no \(kind.title)") }
        let header = kind == .user ? ["app", "user", "last_position", "last_at"] : ["id", "name", "last_position", "last_at"]
        let rows = page.items.map { item in
            [kind == .user ? item.app ?? "" : item.id, kind == .user ? item.id : item.name ?? "",
             item.lastPosition.map(String.init) ?? "", item.lastOccurredAt?.iso8601 ?? ""]
        }
        if !rows.isEmpty { for line in TextTable.lines(header, rows, rightAligned: [2]) { print(line) } }
        if let cut = page.filterCut { print("more than \(cut) match the filter: these are the best \(cut); narrow the filter") }
        if let next = page.next {
            print("more follow: run the same command with --cursor \(next.description)")
        }
        return 0
    }

    static func json(_ page: DirectoryPage) throws -> JSONValue {
        .object([
            "items": .array(page.items.map { item in
                var object: [String: JSONValue] = ["kind": .string(item.kind.rawValue), "id": .string(item.id)]
                if let app = item.app { object["app"] = .string(app) }
                if let name = item.name { object["name"] = .string(name) }
                if let p = item.lastPosition { object["last_position"] = .integer(p) }
                if let at = item.lastOccurredAt { object["last_occurred_at"] = .string(at.iso8601) }
                return .object(object)
            }),
            "next_cursor": page.next.map { .string($0.description) } ?? .null,
        ])
    }
}
