import API
import EventStore
import Foundation
import LedgerDomain
import LedgerJSON
import Testing
import TestSupport

/// U6 under funding changes: generated months of usage in time order, with projects moving
/// between a payer's pool and their own at instants within the months (never in the past,
/// as the decider requires), credits and month closes, checked against a reference model
/// written here: every part of every month, every pool of every balance, and that the
/// balances add up to the journal.
@Suite("Billing against a reference model, with funding changes", .bounded)
struct FundingModelTests {
    struct Model {
        var funding: [String: [(effective: Timestamp, pool: String)]] = ["web": [(.minimum, "payer:acme")], "app": [(.minimum, "project:app")]]
        var unitPrice: Int64 = 0
        /// "pool|month" → project → (counted, free, billed, amount)
        var months: [String: [String: (counted: Int64, free: Int64, billed: Int64, amount: Int64)]] = [:]
        var freeUsed: [String: Int64] = [:]
        var closed: Set<String> = []
        /// "account|pool" → (credits, usage posted)
        var balances: [String: (credits: Int64, usage: Int64)] = [:]
        var journalNet: [String: Int64] = [:]

        func pool(of project: String, at instant: Timestamp) -> String {
            funding[project]!.last { $0.effective <= instant }!.pool
        }

        mutating func post(_ amount: Int64, credit: Bool, accounts: [String], pool: String) {
            for account in accounts {
                var b = balances[account + "|" + pool] ?? (0, 0)
                if credit { b.credits += amount } else { b.usage += amount }
                balances[account + "|" + pool] = b
                journalNet[account, default: 0] += amount
            }
        }

        /// The pools `account` has figures on.
        func pools(of account: String) -> Set<String> {
            var out = Set(balances.keys.filter { $0.hasPrefix(account + "|") }.map { String($0.dropFirst(account.count + 1)) })
            if account.hasPrefix("project:") {
                let project = String(account.dropFirst(8))
                for (key, projects) in months where projects[project] != nil { out.insert(String(key.split(separator: "|")[0])) }
            }
            return out
        }

        func held(_ account: String, pool: String) -> Int64 {
            var total: Int64 = 0
            for (key, projects) in months where key.hasPrefix(pool + "|") && !closed.contains(key) {
                for (project, m) in projects where account == pool || account == "project:" + project { total += m.amount }
            }
            return total
        }
    }

    @Test("U6: generated funding changes within months; every part, pool and balance matches the model and the journal", arguments: [1, 2, 3] as [UInt64])
    func matchesModel(seed: UInt64) throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        try f.project("app")
        var keys: [String: String] = [:]
        for p in ["web", "app"] { keys["project:" + p] = try f.key(for: KeyPrincipal(kind: .project, id: p)) }
        keys["payer:acme"] = try f.key(for: KeyPrincipal(kind: .payer, id: "acme"))
        var model = Model()
        var random = SeededRandom(seed: seed)
        let hour: Int64 = 3_600_000_000
        let months = ["2026-09", "2026-10", "2026-11"]
        for month in months {
            var now = t(month + "-01T00:00:00Z")
            for step in 0..<30 {
                now = Timestamp(microseconds: now.microseconds + Int64(random.int(1...20)) * hour)!
                guard UTCMonth(containing: now).description == month else { break }
                switch random.int(0...9) {
                case 0:
                    let project = random.pick(["web", "app"])
                    let current = model.pool(of: project, at: now)
                    let next = current == "payer:acme" ? "project:" + project : "payer:acme"
                    let effective = Timestamp(microseconds: now.microseconds + Int64(random.int(0...30)) * hour)!
                    try f.append(ProjectFundingChanged(projectID: project, funding: next == "payer:acme" ? .payer("acme") : .selfPaying,
                                                       effectiveAt: effective), stream: "project-" + project)
                    // After every change in force at or before it (a later change at the same instant wins, as in the log).
                    let index = model.funding[project]!.lastIndex { $0.effective <= effective }! + 1
                    model.funding[project]!.insert((effective, next), at: index)
                case 1:
                    model.unitPrice = Int64(random.int(0...5))
                    try f.prices(unit: model.unitPrice, storagePerGiB: 0)
                case 2:
                    let pool = random.pick(["payer:acme", "project:app"])
                    let amount = Int64(random.int(1...50_000))
                    _ = try f.credit(Pool(pool)!, .grant, amount)
                    model.post(amount, credit: true, accounts: [pool], pool: pool)
                default:
                    let project = random.pick(["web", "app"])
                    let quantity = Int64(random.int(0...4_000))
                    try f.usage(project, .apiRequests, quantity, at: now.iso8601, id: "\(month)-\(step)")
                    let key = model.pool(of: project, at: now) + "|" + month
                    let free = min(quantity, max(0, 10_000 - model.freeUsed[key, default: 0]))
                    model.freeUsed[key, default: 0] += free
                    var m = model.months[key, default: [:]][project] ?? (0, 0, 0, 0)
                    m.counted += quantity
                    m.free += free
                    m.billed += quantity - free
                    m.amount += (quantity - free) * model.unitPrice
                    model.months[key, default: [:]][project] = m
                }
            }
            // The month is over: each pool with usage in it closes its part.
            for key in model.months.keys.filter({ $0.hasSuffix("|" + month) }).sorted() {
                let pool = String(key.split(separator: "|")[0])
                let closed = try f.closeMonth(Pool(pool)!, month)
                model.closed.insert(key)
                let expected = model.months[key]!.mapValues(\.amount)
                #expect(Dictionary(uniqueKeysWithValues: closed.charges.map { ($0.projectID, Int64($0.amount.value)) }) == expected,
                        "seed \(seed): charges of \(key)")
                for (project, amount) in expected.sorted(by: { $0.key < $1.key }) where amount != 0 {
                    let accounts = pool == "project:" + project ? [pool] : ["project:" + project, pool]
                    model.post(-amount, credit: false, accounts: accounts, pool: pool)
                }
            }
        }
        try f.settle()
        f.service.clock.set("2026-12-15T00:00:00Z")
        let now = t("2026-12-15T00:00:00Z")
        var splitMonths = 0
        for (account, key) in keys.sorted(by: { $0.key < $1.key }) {
            let base = account.hasPrefix("payer:") ? "/v1/payers/" + account.dropFirst(6) : "/v1/projects/" + account.dropFirst(8)
            let balance = try f.get(base + "/balance", key: key).body
            let current = account.hasPrefix("payer:") ? account : model.pool(of: String(account.dropFirst(8)), at: now)
            var pools: [String: JSONValue] = [current: balance]
            for other in balance["other_pools"]?.arrayValue ?? [] {
                let payer = other["payer"]!
                pools[(payer["kind"] == "payer" ? "payer:" : "project:") + payer["id"]!.stringValue!] = other
            }
            #expect(Set(pools.keys) == model.pools(of: account).union([current]), "seed \(seed) \(account): pools")
            var postedTotal: Int64 = 0
            for (pool, read) in pools {
                let b = model.balances[account + "|" + pool] ?? (0, 0)
                let held = model.held(account, pool: pool)
                let posted = b.credits + b.usage
                #expect(read["posted"]?.stringValue == String(posted), "seed \(seed) \(account) on \(pool): posted")
                #expect(read["held"]?.stringValue == String(held), "seed \(seed) \(account) on \(pool): held")
                if account == pool { #expect(read["available"]?.stringValue == String(posted - held), "seed \(seed) \(account) available") }
                postedTotal += Int64(read["posted"]?.stringValue ?? "") ?? 0
            }
            let entries = try f.get(base + "/journal?limit=200", key: key).body["entries"]?.arrayValue ?? []
            let net = entries.compactMap { $0["amount"]?.stringValue.flatMap { Int64($0) } }.reduce(0, +)
            #expect(net == model.journalNet[account, default: 0], "seed \(seed) \(account): journal")
            #expect(postedTotal == net, "seed \(seed) \(account): the balance's pools add up to the journal")
            guard account.hasPrefix("project:") else { continue }
            let project = String(account.dropFirst(8))
            for month in months {
                let usage = try f.get(base + "/usage?month=" + month, key: key).body
                let parts = usage["parts"]?.arrayValue ?? []
                if parts.count > 1 { splitMonths += 1 }
                var seen: Set<String> = []
                for part in parts {
                    let payer = part["payer"]!
                    let pool = (payer["kind"] == "payer" ? "payer:" : "project:") + payer["id"]!.stringValue!
                    seen.insert(pool)
                    let m = model.months[pool + "|" + month]?[project] ?? (0, 0, 0, 0)
                    #expect(part["units"]?["counted"]?.int64Value == m.counted && part["units"]?["free_used"]?.int64Value == m.free
                            && part["units"]?["billed"]?.int64Value == m.billed && part["amount"]?.stringValue == String(m.amount),
                            "seed \(seed) \(project) \(month) on \(pool): \(part)")
                    #expect(part["units"]?["free_limit"] == 10_000)
                    #expect(part["status"] == "closed" || model.months[pool + "|" + month]?[project] == nil)
                }
                let expectedPools = Set(model.months.keys.filter { $0.hasSuffix("|" + month) && model.months[$0]![project] != nil }
                    .map { String($0.split(separator: "|")[0]) }).union([model.pool(of: project, at: now)])
                #expect(seen == expectedPools, "seed \(seed) \(project) \(month): parts")
                #expect(usage["units"]?["free_limit"]?.int64Value == Int64(10_000 * parts.count))
                let total = parts.compactMap { $0["units"]?["free_used"]?.int64Value }.reduce(0, +)
                #expect(usage["units"]?["free_used"]?.int64Value == total)
            }
        }
        #expect(splitMonths > 0, "seed \(seed): the sequence split no month, so it proved nothing about U6")
    }
}
