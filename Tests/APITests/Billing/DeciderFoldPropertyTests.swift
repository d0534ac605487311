import API
import EventStore
import Foundation
import LedgerDomain
import ProjectionEngine
import Projections
import TestSupport
import Testing

/// The folds can never throw on an accepted event. Long generated sequences of
/// commands, many at or past the limits, go through the deciders against an exact
/// in-memory state; whatever is accepted is appended and folded by the real projector,
/// which must never stop, and whose balances and counts must equal the reference sums
/// (far past 64 bits, so the 128-bit and numeric sums are exercised).
@Suite("Deciders and folds over generated commands", .serialized, .bounded)
struct DeciderFoldPropertyTests {
    /// The reference: what the deciders see, and what the reads must say.
    struct Model {
        var accounts = AccountsDecider.State()
        var funding: [String: FundingHistory] = [:]
        /// Credit-like posts per pool account (credits, corrections, captures).
        var posted: [String: Int128] = [:]
        var entries: [JournalEntryRef] = []
        var holds: [String: HoldPlaced] = [:]
        /// Counted units per project in November.
        var counted: [String: Int128] = [:]
        var accepted = 0
        var refused = 0
        var refusalCodes: Set<Refusal.Code> = []
    }

    static let now = Timestamp(iso8601: "2026-11-20T12:00:00Z")!

    /// Decides, appends what is accepted, and keeps the reference.
    final class Run {
        let store: EventStore
        var model = Model()
        let metadata = EventMetadata(actor: Actor(.operator, "property"), reason: "generated")

        init(store: EventStore) { self.store = store }

        /// A decider's refusal, and an append refused because a stream is not where the
        /// decision expected it (a create of what exists), both append nothing.
        func apply(_ decide: () throws -> Decision, then update: (AppendResult) -> Void = { _ in }) throws {
            let decision: Decision
            do {
                decision = try decide()
            } catch let refusal as Refusal {
                model.refused += 1
                model.refusalCodes.insert(refusal.code)
                return
            }
            let result: AppendResult
            do {
                result = try store.append(AppendRequest(decision, metadata: metadata))
            } catch {
                guard error.code == .wrongExpectedVersion else { throw error }
                model.refused += 1
                return
            }
            model.accepted += 1
            update(result)
        }
    }

    @Test("every accepted event folds; reads equal the reference", arguments: [UInt64(11), 12, 13])
    func generated(seed: UInt64) throws {
        let f = try BillingFixture()
        defer { f.shutdown() }
        var random = SeededRandom(seed: seed)
        let run = Run(store: f.service.store)
        func amount(_ r: inout SeededRandom) -> Int64 {
            switch r.int(0...9) {
            case 0: return 1_000_000_000_000_000          // the limit
            case 1: return 1_000_000_000_000_001          // one past it: refused
            case 2: return 0                               // refused
            default: return Int64(r.int(1...1_000_000_000)) * Int64(r.int(1...1_000_000))
            }
        }

        for step in 0..<250 {
            switch random.int(0...9) {
            case 0:
                let id = "payer\(random.int(0...5))"
                try run.apply({ try AccountsDecider.createPayer(id: id, name: id, plan: nil) }) { _ in
                    run.model.accounts.payers.insert(id)
                    run.model.accounts.knownPools.insert(.payer(id))
                }
            case 1:
                let id = "proj\(random.int(0...8))"
                let payer = run.model.accounts.payers.sorted().first.flatMap { random.chance(0.5) ? $0 : nil }
                let funding: Funding = payer.map { .payer($0) } ?? .selfPaying
                guard !run.model.accounts.projects.contains(id) else { continue }
                try run.apply({ try AccountsDecider.createProject(id: id, name: id, funding: funding, state: run.model.accounts) }) { r in
                    run.model.accounts.projects.insert(id)
                    run.model.accounts.knownPools.insert(funding.pool(of: id))
                    run.model.funding[id] = FundingHistory([.init(effective: .minimum, position: r.position, pool: funding.pool(of: id))])
                }
            case 2, 3:
                guard let pool = run.model.accounts.knownPools.sorted().randomElement(using: &random) else { continue }
                let a = Millicredits(amount(&random))
                try run.apply({ try MoneyDecider.credit(pool: pool, source: .grant, amount: a, description: "s\(step)", state: run.model.accounts) }) { r in
                    run.model.posted[pool.description, default: 0] += a.value
                    run.model.entries.append(JournalEntryRef(id: JournalEntryID(position: r.position, index: 0), accounts: [pool.description],
                                                         pool: pool, projectID: nil, amount: a, kind: "credit"))
                }
            case 4:
                guard let entry = run.model.entries.randomElement(using: &random) else { continue }
                let a = Millicredits(amount(&random) * (random.chance(0.5) ? -1 : 1))
                try run.apply({ try MoneyDecider.correct(entry, id: entry.id, amount: a, reason: "s\(step)") }) { _ in
                    run.model.posted[entry.pool.description, default: 0] += a.value
                }
            case 5:
                let unit = Millicredits(random.chance(0.3) ? 1_000_000_000 : Int64(random.int(0...1_000)))
                try run.apply({ try MoneyDecider.setPrices(unitPrice: unit, storagePricePerGiBMonth: Millicredits(Int64(random.int(0...1_000_000)))) })
            case 6:
                guard let project = run.model.accounts.projects.sorted().randomElement(using: &random) else { continue }
                let id = "h\(step)"
                let a = Millicredits(amount(&random))
                let pool = run.model.funding[project]?.pool(at: Self.now)
                try run.apply({ try HoldDecider.place(id: id, projectID: project, amount: a, description: "d", currentPool: pool,
                                                  state: run.model.accounts) }) { _ in
                    run.model.holds[id] = HoldPlaced(holdID: id, projectID: project, pool: pool!, amount: a, description: "d")
                }
            case 7:
                guard let (id, hold) = run.model.holds.sorted(by: { $0.key < $1.key }).randomElement(using: &random) else { continue }
                let take = random.chance(0.3) ? nil : Millicredits(Int64(random.int(1...Int(min(hold.amount.int64!, 2_000_000_000_000_000)))))
                try run.apply({ try HoldDecider.capture(id: id, amount: take, state: .open(hold)) }) { _ in
                    // A capture posts to the project's account and, for a funded project, its pool's.
                    run.model.posted[hold.pool.description, default: 0] -= (take ?? hold.amount).value
                    run.model.holds[id] = nil
                }
            default:
                let projects = run.model.accounts.projects.sorted()
                guard !projects.isEmpty else { continue }
                let batch = (0..<random.int(1...6)).map { i -> UsageDecider.Measurement in
                    let meter = random.pick(Meter.allCases)
                    let limit = BillingLimits.maximumQuantity(meter)
                    let quantity = random.chance(0.3) ? limit : (random.chance(0.05) ? limit + 1 : Int64(random.int(0...1_000_000)))
                    return UsageDecider.Measurement(id: "u\(seed)-\(step)-\(i)", projectID: random.pick(projects), meter: meter.rawValue,
                                                    quantity: quantity, occurredAt: Timestamp(iso8601: "2026-11-1\(random.int(0...9))T00:00:00Z")!)
                }
                let state = UsageState(funding: run.model.funding, closedMonths: [])
                try run.apply({ try UsageDecider.decide(batch, state: state, now: Self.now) }) { _ in
                    for m in batch where Meter(rawValue: m.meter)!.isCountedUnit { run.model.counted[m.projectID, default: 0] += Int128(m.quantity) }
                }
            }
        }
        #expect(run.model.accepted > 100 && run.model.refused > 10, "accepted \(run.model.accepted), refused \(run.model.refused)")
        #expect(run.model.refusalCodes.contains(.outOfRange) && run.model.refusalCodes.contains(.invalidUsageBatch))

        try f.settle()
        let reads = BillingReadModel(connections: f.service.context.connections)
        for projection in AllProjections.all {
            let checkpoint = try f.service.context.connections.read { try ProjectionSchema.progress(projection.schema, on: $0) }
            #expect(checkpoint?.failedPosition == nil, "seed \(seed): \(projection.name) stopped: \(checkpoint?.error ?? "")")
        }
        try reads.snapshot(now: Self.now) { snapshot in
            for pool in run.model.accounts.knownPools {
                let b = try snapshot.balance(pool.description, pool: pool)
                let posted = try Millicredits.sum([b.creditGrant, b.correction, b.holdPosted]).value
                #expect(posted == run.model.posted[pool.description, default: 0], "seed \(seed): \(pool)")
            }
            for (project, units) in run.model.counted {
                // A project the model counted units for has its pool's month: no case is skipped.
                let pool = try #require(run.model.funding[project]?.pool(at: Self.now), "seed \(seed): no pool for \(project)")
                let month = try #require(try snapshot.poolMonth(pool, "2026-11"), "seed \(seed): no 2026-11 of \(pool) for \(project)")
                #expect(month.charges[project]?.units.value == units, "seed \(seed): \(project)")
            }
        }
    }
}
