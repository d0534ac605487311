import API
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// Generated sequences of grants, holds, captures, releases, usage, month closes, price
/// changes and corrections, checked against a reference model written here, then a full
/// replay that must give the same tables and the same reads.
@Suite("Billing against a reference model", .bounded)
struct BillingModelTests {
    /// The reference: what each account should read, computed the simple way.
    struct Model {
        struct Account { var sources: [String: Int64] = [:]; var usagePosted: Int64 = 0; var holdPosted: Int64 = 0; var entries = 0 }
        struct ProjectMonth { var counted: Int64 = 0; var free: Int64 = 0; var billed: Int64 = 0; var unitsAmount: Int64 = 0; var peak: Int64 = 0 }
        var accounts: [String: Account] = [:]        // key "<account>|<pool>"
        var journalCount: [String: Int] = [:]        // account → entries
        var months: [String: [String: ProjectMonth]] = [:]   // "pool|month" → project → usage
        var freeUsed: [String: Int64] = [:]          // "pool|month"
        var closed: Set<String> = []
        var holds: [String: (project: String, pool: String, amount: Int64)] = [:]
        var unitPrice: Int64 = 0
        var entries: [(id: String, accounts: [String], pool: String)] = []

        static func poolOf(_ project: String) -> String { project == "solo" ? "project:solo" : "payer:acme" }
        static func accountsFor(project: String?, pool: String) -> [String] {
            var a = [pool]
            if let project, "project:" + project != pool { a.insert("project:" + project, at: 0) }
            return a
        }

        mutating func post(_ id: String, accounts: [String], pool: String, _ change: (inout Account) -> Void) {
            for account in accounts {
                change(&self.accounts[account + "|" + pool, default: Account()])
                journalCount[account, default: 0] += 1
            }
            entries.append((id, accounts, pool))
        }

        /// Charges of an open or closing pool-month (storage priced at one millicredit a byte).
        func charges(_ poolMonth: String) -> [String: Int64] {
            let projects = months[poolMonth] ?? [:]
            let storage = projects.values.reduce(0) { $0 + $1.peak }
            let billedBytes = storage   // allowance 0
            var shares: [String: Int64] = [:]
            let keys = projects.keys.sorted()
            var given: Int64 = 0
            var remainders: [(String, Int64)] = []
            for k in keys {
                let share = storage == 0 ? 0 : billedBytes * projects[k]!.peak / storage
                shares[k] = share
                given += share
                remainders.append((k, storage == 0 ? 0 : billedBytes * projects[k]!.peak % storage))
            }
            var left = billedBytes - given
            for (k, _) in remainders.enumerated().sorted(by: { $0.element.1 != $1.element.1 ? $0.element.1 > $1.element.1 : $0.offset < $1.offset }).map(\.element) where left > 0 {
                shares[k]! += 1
                left -= 1
            }
            return projects.mapValues { _ in 0 }.merging(shares) { _, s in s }.reduce(into: [:]) { out, kv in
                out[kv.key] = kv.value + projects[kv.key]!.unitsAmount
            }
        }

        func accrued(account: String, pool: String) -> Int64 {
            var total: Int64 = 0
            for key in months.keys where key.hasPrefix(pool + "|") && !closed.contains(key) {
                for (project, amount) in charges(key) where account == pool || account == "project:" + project { total += amount }
            }
            return total
        }

        func held(account: String, pool: String) -> Int64 {
            accrued(account: account, pool: pool)
                + holds.values.filter { $0.pool == pool && (account == pool || account == "project:" + $0.project) }.reduce(0) { $0 + $1.amount }
        }
    }

    @Test("generated sequences match the reference model, and a full replay gives the same tables and reads", arguments: [1, 2, 3] as [UInt64])
    func matchesModel(seed: UInt64) throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        try f.project("app", payer: "acme")
        try f.project("solo")
        var keys: [String: String] = [:]
        for p in ["web", "app", "solo"] { keys["project:" + p] = try f.key(for: KeyPrincipal(kind: .project, id: p)) }
        keys["payer:acme"] = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        try f.prices(unit: 0, storagePerGiB: 1 << 30)

        var model = Model()
        var random = SeededRandom(seed: seed)
        let projects = ["web", "app", "solo"]
        let monthsAvailable = ["2026-09", "2026-10", "2026-11"]
        for step in 0..<120 {
            switch random.int(0...9) {
            case 0:
                let pool = random.pick(["payer:acme", "project:solo"])
                let source = random.pick(CreditSource.allCases)
                let amount = Int64(random.int(1...100_000))
                let r = try f.credit(Pool(pool)!, source, amount)
                model.post(JournalEntryID(position: r.position, index: 0).description, accounts: [pool], pool: pool) { $0.sources[source.rawValue, default: 0] += amount }
            case 1:
                let project = random.pick(projects)
                let pool = Model.poolOf(project)
                let amount = Int64(random.int(1...5_000))
                let id = "h\(step)"
                try f.append(HoldPlaced(holdID: id, projectID: project, pool: Pool(pool)!, amount: Millicredits(amount), description: "x"), stream: "hold-" + id)
                model.holds[id] = (project, pool, amount)
            case 2 where !model.holds.isEmpty:
                let id = model.holds.keys.sorted()[random.int(0...(model.holds.count - 1))]
                let hold = model.holds.removeValue(forKey: id)!
                if random.chance(0.5) {
                    let captured = Int64(random.int(0...Int(hold.amount)))
                    let r = try f.append(HoldCaptured(holdID: id, amount: Millicredits(captured)), stream: "hold-" + id)
                    model.post(JournalEntryID(position: r.position, index: 0).description,
                               accounts: Model.accountsFor(project: hold.project, pool: hold.pool), pool: hold.pool) { $0.holdPosted -= captured }
                } else {
                    try f.append(HoldReleased(holdID: id), stream: "hold-" + id)
                }
            case 3:
                model.unitPrice = Int64(random.int(0...7))
                try f.prices(unit: model.unitPrice, storagePerGiB: 1 << 30)
            case 4 where !model.entries.isEmpty:
                let entry = model.entries[random.int(0...(model.entries.count - 1))]
                let amount = Int64(random.int(-3_000...3_000))
                let r = try f.append(EntryCorrected(entryID: entry.id, amount: Millicredits(amount), reason: "step \(step)"),
                                     stream: Pool(entry.pool)!.ownerStream, corrects: JournalEntryID(entry.id)!.position)
                model.post(JournalEntryID(position: r.position, index: 0).description, accounts: entry.accounts, pool: entry.pool) {
                    $0.sources["correction", default: 0] += amount
                }
            case 5:
                let pool = random.pick(["payer:acme", "project:solo"])
                let month = random.pick(Array(monthsAvailable.prefix(2)))
                let key = pool + "|" + month
                guard !model.closed.contains(key) else { continue }
                let closed = try f.closeMonth(Pool(pool)!, month)
                model.closed.insert(key)
                let charges = model.charges(key)
                #expect(Dictionary(uniqueKeysWithValues: closed.charges.map { ($0.projectID, Int64($0.amount.value)) }) == charges,
                        "seed \(seed) step \(step): charges of \(key)")
                var index: Int32 = 0
                let position = try f.service.store.log.headPosition()
                for (project, amount) in charges.sorted(by: { $0.key < $1.key }) where amount != 0 {
                    model.post(JournalEntryID(position: position, index: index).description,
                               accounts: Model.accountsFor(project: project, pool: pool), pool: pool) { $0.usagePosted -= amount }
                    index += 1
                }
            default:
                let project = random.pick(projects)
                let pool = Model.poolOf(project)
                let month = random.pick(monthsAvailable)
                let key = pool + "|" + month
                guard !model.closed.contains(key) else { continue }
                let meter = random.pick([Meter.apiRequests, .streamEvents, .webhookDeliveries, .storageBytes, .bytesServed])
                let quantity = Int64(random.int(0...6_000))
                try f.usage(project, meter, quantity, at: "\(month)-15T00:00:00Z", id: "u\(step)")
                var pm = model.months[key, default: [:]][project, default: Model.ProjectMonth()]
                if meter.isCountedUnit {
                    let free = min(quantity, max(0, 10_000 - model.freeUsed[key, default: 0]))
                    model.freeUsed[key, default: 0] += free
                    pm.counted += quantity
                    pm.free += free
                    pm.billed += quantity - free
                    pm.unitsAmount += (quantity - free) * model.unitPrice
                } else if meter == .storageBytes {
                    pm.peak = max(pm.peak, quantity)
                }
                model.months[key, default: [:]][project] = pm
            }
        }
        try f.settle()
        let before = try reads(f, keys: keys)
        try check(before, against: model, seed: seed)

        // A full replay gives byte-identical tables and the same reads.
        let connection = try f.service.db.connect()
        let billing = BillingProjection()
        let tables = try billing.tables.map { try ProjectionSchema.checksum(schema: billing.schema, table: $0, on: connection) }
        try ProjectionRebuilder(conninfo: f.service.db.projectorURL, batchSize: 37, log: { _, _, _ in }).rebuild([billing])
        #expect(try billing.tables.map { try ProjectionSchema.checksum(schema: billing.schema, table: $0, on: connection) } == tables)
        #expect(try reads(f, keys: keys) == before)
        // Again with every journal row sent as soon as it is made: the COPY under way is
        // ended by each read the fold makes (a hold or an entry of an earlier batch) and
        // opened again after it, and the tables are still the same, byte for byte.
        var streaming = BillingProjection()
        streaming.journalStreamBytes = 1
        try ProjectionRebuilder(conninfo: f.service.db.projectorURL, batchSize: 37, log: { _, _, _ in }).rebuild([streaming])
        #expect(try billing.tables.map { try ProjectionSchema.checksum(schema: billing.schema, table: $0, on: connection) } == tables)
    }

    /// Every read of every account, as JSON text, keyed by path.
    func reads(_ f: BillingFixture, keys: [String: String]) throws -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for (account, key) in keys {
            let base = account.hasPrefix("payer:") ? "/v1/payers/" + account.dropFirst(6) : "/v1/projects/" + account.dropFirst(8)
            out[account + " balance"] = try f.get(base + "/balance", key: key).body
            out[account + " journal"] = try f.get(base + "/journal?limit=200", key: key).body
            for month in ["2026-09", "2026-10", "2026-11"] {
                out[account + " usage " + month] = try f.get(base + "/usage?month=" + month, key: key).body
            }
        }
        return out
    }

    func check(_ reads: [String: JSONValue], against model: Model, seed: UInt64) throws {
        for account in ["payer:acme", "project:solo", "project:web", "project:app"] {
            let pool = account == "project:solo" ? "project:solo" : (account == "payer:acme" ? "payer:acme" : "payer:acme")
            let balance = try #require(reads[account + " balance"])
            let a = model.accounts[account + "|" + pool] ?? Model.Account()
            let posted = a.sources.values.reduce(0, +) + a.usagePosted + a.holdPosted
            let held = model.held(account: account, pool: pool)
            #expect(balance["posted"]?.stringValue == String(posted), "seed \(seed) \(account) posted")
            #expect(balance["held"]?.stringValue == String(held), "seed \(seed) \(account) held")
            if account == pool {
                #expect(balance["available"]?.stringValue == String(posted - held), "seed \(seed) \(account) available")
                for source in CreditSource.allCases {
                    #expect(balance["sources"]?[source.rawValue]?["posted"]?.stringValue == String(a.sources[source.rawValue] ?? 0))
                }
            }
            let entries = reads[account + " journal"]?["entries"]?.arrayValue ?? []
            #expect(entries.count == model.journalCount[account] ?? 0, "seed \(seed) \(account) journal")
            guard account.hasPrefix("project:") else { continue }
            let project = String(account.dropFirst(8))
            for month in ["2026-09", "2026-10", "2026-11"] {
                let usage = try #require(reads[account + " usage " + month])
                let pm = model.months[pool + "|" + month]?[project] ?? Model.ProjectMonth()
                #expect(usage["units"]?["counted"]?.int64Value == pm.counted, "seed \(seed) \(account) \(month) counted")
                #expect(usage["units"]?["free_used"]?.int64Value == pm.free, "seed \(seed) \(account) \(month) free")
                #expect(usage["units"]?["billed"]?.int64Value == pm.billed, "seed \(seed) \(account) \(month) billed")
                #expect(usage["units"]?["amount"]?.stringValue == String(pm.unitsAmount), "seed \(seed) \(account) \(month) units amount")
                #expect(usage["amount"]?.stringValue == String(model.charges(pool + "|" + month)[project] ?? 0),
                        "seed \(seed) \(account) \(month) amount")
            }
        }
    }
}
