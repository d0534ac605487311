import LedgerDomain
import Testing
import TestSupport

/// The billing rules as the deciders enforce them, with no database: a command and the
/// state it needs in, events or a refusal out.
@Suite("Billing deciders (U, B, J)", .bounded)
struct BillingDeciderTests {
    static let now = Timestamp(iso8601: "2026-11-15T12:00:00Z")!
    static let state = UsageState(
        funding: ["web": FundingHistory([.init(effective: Timestamp(iso8601: "2026-01-01T00:00:00Z")!, position: 2, pool: .payer("acme"))]),
                  "solo": FundingHistory([.init(effective: Timestamp(iso8601: "2026-01-01T00:00:00Z")!, position: 3, pool: .project("solo"))])],
        closedMonths: [PoolMonth(.payer("acme"), UTCMonth("2026-10")!)])

    static func measurement(_ id: String, _ project: String = "web", _ meter: String = "api_requests", _ quantity: Int64 = 5,
                            at: String = "2026-11-10T00:00:00Z") -> UsageDecider.Measurement {
        UsageDecider.Measurement(id: id, projectID: project, meter: meter, quantity: quantity, occurredAt: Timestamp(iso8601: at)!)
    }

    static func refusal(_ batch: [UsageDecider.Measurement]) -> Refusal? {
        do { _ = try UsageDecider.decide(batch, state: state, now: now); return nil } catch { return error }
    }

    @Test("U1: each measurement is usage.recorded on its project's stream, idempotent on its id")
    func usageEvents() throws {
        let decision = try UsageDecider.decide([Self.measurement("a"), Self.measurement("b", "solo", "storage_bytes", 100)],
                                               state: Self.state, now: Self.now)
        #expect(decision.events.map(\.stream) == ["usage-web", "usage-solo"])
        #expect(decision.events.map(\.idempotencyKey) == ["usage:a", "usage:b"])
        #expect(try decision.events[1].decode(UsageRecorded.self) == UsageRecorded(usageID: "b", projectID: "solo", meter: .storageBytes, quantity: 100))
        #expect(decision.events[0].occurredAt == Timestamp(iso8601: "2026-11-10T00:00:00Z"))
    }

    @Test("limits: a quantity past one event's limit is refused, so that no fold can overflow",
          arguments: [("api_requests", Int64(1_000_000_000), true), ("api_requests", 1_000_000_001, false),
                      ("storage_bytes", 1_000_000_000_000_000, true), ("bytes_served", 1_000_000_000_000_001, false),
                      ("stream_events", 1_000_000_000_000_000_000, false), ("webhook_deliveries", -1, false)])
    func quantityLimits(_ meter: String, _ quantity: Int64, _ accepted: Bool) {
        let refused = Self.refusal([Self.measurement("q", "web", meter, quantity)])
        #expect((refused == nil) == accepted, "\(meter) \(quantity): \(refused?.errors ?? [])")
        if let refused { #expect(refused.code == .invalidUsageBatch) }
    }

    @Test("U: every invalid event of a batch is named, and the batch is refused whole")
    func wholeBatchRefused() throws {
        let refused = try #require(Self.refusal([
            Self.measurement("ok"), Self.measurement("badmeter", "web", "gpu_seconds"), Self.measurement("ghost", "ghost"),
            Self.measurement("closed", "web", "api_requests", 1, at: "2026-10-31T23:59:59Z"),
            Self.measurement("future", at: "2026-11-15T12:06:00Z"), Self.measurement("id with space"),
            Self.measurement("ok", "web", "api_requests", 6),
        ]))
        #expect(refused.errors.count == 6, "\(refused.errors)")
        #expect(refused.errors.contains { $0.hasPrefix("events[1]:") && $0.contains("unknown meter") })
        #expect(refused.errors.contains { $0.hasPrefix("events[2]:") && $0.contains("no project ghost") })
        #expect(refused.errors.contains { $0.hasPrefix("events[3]:") && $0.contains("2026-10 is closed for payer:acme") })
        #expect(refused.errors.contains { $0.hasPrefix("events[4]:") && $0.contains("in the future") })
        #expect(refused.errors.contains { $0.hasPrefix("events[5]:") && $0.contains("printable ASCII") })
        #expect(refused.errors.contains { $0.hasPrefix("events[6]:") && $0.contains("appears twice") })
    }

    @Test("the same measurement twice in a batch is counted once; batches are 1 to 1,000 events")
    func duplicatesAndSize() throws {
        #expect(try UsageDecider.decide([Self.measurement("a"), Self.measurement("a")], state: Self.state, now: Self.now).events.count == 1)
        #expect(Self.refusal([])?.code == .invalidUsageBatch)
        #expect(Self.refusal((0...1_000).map { Self.measurement("m\($0)") })?.code == .invalidUsageBatch)
    }

    @Test("U6: usage is billed to the pool that funded the project when it occurred")
    func fundingAtTheInstant() throws {
        let history = FundingHistory([.init(effective: Timestamp(iso8601: "2026-01-01T00:00:00Z")!, position: 3, pool: .project("p")),
                                      .init(effective: Timestamp(iso8601: "2026-10-15T00:00:00Z")!, position: 9, pool: .payer("acme"))])
        let state = UsageState(funding: ["p": history], closedMonths: [PoolMonth(.project("p"), UTCMonth("2026-10")!)])
        // Before the change: the project's own pool, whose October is closed.
        #expect(throws: Refusal.self) {
            try UsageDecider.decide([Self.measurement("x", "p", "api_requests", 1, at: "2026-10-14T00:00:00Z")], state: state, now: Self.now)
        }
        // After it: the payer's, open.
        _ = try UsageDecider.decide([Self.measurement("y", "p", "api_requests", 1, at: "2026-10-16T00:00:00Z")], state: state, now: Self.now)
    }

    @Test("J4: credits are 1 to 10^15 millicredits on a pool the ledger knows; nothing else")
    func credits() throws {
        let known = AccountsDecider.State(payers: ["acme"], projects: ["web"], knownPools: [.payer("acme")])
        let d = try MoneyDecider.credit(pool: .payer("acme"), source: .grant, amount: Millicredits(5), description: "d", state: known)
        #expect(d.expectedVersions == ["payer-acme": .streamExists])
        for bad in [Int64(0), -1, 1_000_000_000_000_001] {
            #expect(throws: Refusal.self) {
                try MoneyDecider.credit(pool: .payer("acme"), source: .grant, amount: Millicredits(bad), description: "d", state: known)
            }
        }
        #expect(throws: Refusal.self) {   // A funded project has no pool of its own.
            try MoneyDecider.credit(pool: .project("web"), source: .grant, amount: Millicredits(5), description: "d", state: known)
        }
        #expect(throws: Refusal.self) {
            try MoneyDecider.credit(pool: .payer("ghost"), source: .grant, amount: Millicredits(5), description: "d", state: known)
        }
    }

    @Test("J3: a correction names the original entry and its position, never edits it; signed, never zero")
    func corrections() throws {
        let entry = JournalEntryRef(id: JournalEntryID(position: 42, index: 0), accounts: ["payer:acme"], pool: .payer("acme"),
                                    projectID: nil, amount: Millicredits(100), kind: "credit")
        let d = try MoneyDecider.correct(entry, id: entry.id, amount: Millicredits(-30), reason: "typo")
        #expect(d.events[0].correctsPosition == 42)
        #expect(try d.events[0].decode(EntryCorrected.self).entryID == "je_42_0")
        #expect(throws: Refusal.self) { try MoneyDecider.correct(entry, id: entry.id, amount: .zero, reason: "r") }
        #expect(throws: Refusal.self) { try MoneyDecider.correct(nil, id: entry.id, amount: Millicredits(1), reason: "r") }
        #expect(throws: Refusal.self) { try MoneyDecider.correct(entry, id: entry.id, amount: Millicredits(-1_000_000_000_000_001), reason: "r") }
    }

    @Test("J3: the corrections of an entry together never reverse more than the entry, and never add to it (generated entries and corrections)")
    func correctionsAreBounded() throws {
        var random = SeededRandom(seed: 16)
        for _ in 0..<2_000 {
            let amount = Int64(random.int(1...5_000)) * (random.chance(0.5) ? 1 : -1)
            var entry = JournalEntryRef(id: JournalEntryID(position: 42, index: 0), accounts: ["payer:acme"], pool: .payer("acme"),
                                        projectID: nil, amount: Millicredits(amount), kind: amount > 0 ? "credit" : "usage_charge")
            var net = amount
            for _ in 0..<random.int(1...6) {
                let correction = Int64(random.int(-6_000...6_000))
                guard correction != 0 else { continue }
                let allowed = amount > 0 ? (0...amount).contains(net + correction) : (amount...0).contains(net + correction)
                do {
                    let d = try MoneyDecider.correct(entry, id: entry.id, amount: Millicredits(correction), reason: "r", streamVersion: 7)
                    #expect(allowed, "\(amount) with net \(net) corrected by \(correction) was accepted")
                    #expect(d.expectedVersions == ["payer-acme": .exactly(7)])
                    net += correction
                    entry.corrected = try entry.corrected + Millicredits(correction)
                } catch let error as Refusal {
                    #expect(!allowed && error.code == .correctionExceedsEntry, "\(amount) with net \(net) corrected by \(correction): \(error)")
                }
            }
        }
        // The auditor's case: a 1,000 credit corrected by -5,000.
        let credit = JournalEntryRef(id: JournalEntryID(position: 9, index: 0), accounts: ["payer:acme"], pool: .payer("acme"),
                                     projectID: nil, amount: Millicredits(1_000), kind: "credit")
        #expect(throws: Refusal.self) { try MoneyDecider.correct(credit, id: credit.id, amount: Millicredits(-5_000), reason: "r") }
        #expect(throws: Refusal.self) { try MoneyDecider.correct(credit, id: credit.id, amount: Millicredits(1), reason: "more is a grant") }
        #expect(try MoneyDecider.correct(credit, id: credit.id, amount: Millicredits(-1_000), reason: "all of it").events.count == 1)
    }

    @Test("prices: a unit price past 10^9 or a storage price past 10^12 is refused")
    func priceLimits() throws {
        _ = try MoneyDecider.setPrices(unitPrice: BillingLimits.maximumUnitPrice, storagePricePerGiBMonth: BillingLimits.maximumStoragePrice)
        #expect(throws: Refusal.self) { try MoneyDecider.setPrices(unitPrice: Millicredits(1_000_000_001), storagePricePerGiBMonth: .zero) }
        #expect(throws: Refusal.self) { try MoneyDecider.setPrices(unitPrice: .zero, storagePricePerGiBMonth: Millicredits(-1)) }
    }

    @Test("J2: a hold is placed on the project's pool, captured once and never for more than it holds")
    func holds() throws {
        let state = AccountsDecider.State(projects: ["web"])
        let placed = try HoldDecider.place(id: "h1", projectID: "web", amount: Millicredits(100), description: "d",
                                           currentPool: .payer("acme"), state: state)
        #expect(placed.expectedVersions["hold-h1"] == .noStream)
        let hold = try placed.events[0].decode(HoldPlaced.self)
        #expect(hold.pool == .payer("acme"))
        let open = HoldDecider.State.open(hold)
        #expect(try HoldDecider.capture(id: "h1", amount: nil, state: open).expectedVersions["hold-h1"] == .exactly(1))
        #expect(throws: Refusal.self) { try HoldDecider.capture(id: "h1", amount: Millicredits(101), state: open) }
        #expect(throws: Refusal.self) { try HoldDecider.release(id: "h1", state: .settled(by: HoldCaptured.type, position: 9)) }
        #expect(throws: Refusal.self) { try HoldDecider.capture(id: "h1", amount: nil, state: .absent) }
    }

    @Test("month close: not before the month ends (unless forced), once, with keys that name the month")
    func monthClose() throws {
        let month = PoolMonth(.payer("acme"), UTCMonth("2026-11")!)
        let known = AccountsDecider.State(payers: ["acme"], knownPools: [.payer("acme")])
        #expect(throws: Refusal.self) { try MonthCloseDecider.closing(month, status: .open, now: Self.now, force: false, state: known) }
        let closing = try #require(try MonthCloseDecider.closing(month, status: .open, now: Self.now, force: true, state: known))
        #expect(closing.idempotencyKey == "month-closing:payer:acme:2026-11")
        #expect(try MonthCloseDecider.closing(month, status: .closing, now: Self.now, force: true, state: known) == nil)
        #expect(throws: Refusal.self) { try MonthCloseDecider.closing(month, status: .closed, now: Self.now, force: true, state: known) }
        let closed = try MonthCloseDecider.closed(month, closing: ClosingMonth(allowanceBytes: 0, storagePrice: .zero, charges: []))
        #expect(closed.idempotencyKey == "month-close:payer:acme:2026-11")
    }
}
