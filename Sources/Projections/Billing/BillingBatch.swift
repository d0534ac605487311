import EventStore
import LedgerDomain
import Postgres
import ProjectionEngine

/// One batch of the billing fold: the state the batch's events need, read once from the
/// tables as the previous batch left them, changed in memory event by event, and written
/// once per table when the batch ends (`write`). Every handler reads only the events and
/// the projection's own tables, never the clock.
final class BillingBatch {
    let db: ProjectionContext
    /// The batch's billing events, in log order.
    private let events: [RecordedEvent]
    /// The index in `events` of the event being folded, its position and when it occurred
    /// (kept here: reading them through the event would retain and release an object that
    /// every projection's thread shares, for each use).
    private var current = 0
    private(set) var position: Int64 = 0
    private(set) var eventTime = Timestamp.minimum

    /// The event being folded.
    var event: RecordedEvent { events[current] }
    var occurredAt: String { eventTime.iso8601 }

    /// Journal rows gathered before they are sent, the batch still folding (`streamJournal`).
    let journalStreamBytes: Int

    init(db: ProjectionContext, events: [RecordedEvent], corrects: Bool, journalStreamBytes: Int) {
        self.db = db
        self.events = events
        self.journalStreamBytes = journalStreamBytes
        keepsPostedEntries = corrects
        if corrects { postedEntries.reserveCapacity(events.count) }
    }

    /// Makes the `index`th event of the batch the one being folded.
    func fold(at index: Int, occurredAt: Timestamp) {
        current = index
        position = events[index].position
        eventTime = occurredAt
    }

    // MARK: New rows, written by COPY

    var payers = RowBuffer(columns: 3)
    var projects = RowBuffer(columns: 3)
    var funding = RowBuffer(columns: 4)
    var keys = RowBuffer(columns: 6)
    /// The journal's new rows, in COPY's binary format: the one table a batch adds a row
    /// to for nearly every event.
    var journal = PostgresBinaryCopyRows()
    var corrections = RowBuffer(columns: 8)
    var charges = RowBuffer(columns: 13)
    var lateUsage = RowBuffer(columns: 7)
    var revokedKeys: [String] = []

    // MARK: State read once and kept current

    /// Pools the batch touched, in first-seen order, and the plan last set on each.
    var pools = OrderedKeys<String>()
    var plans: [String: (plan: String, allowance: Int64)] = [:]
    /// Storage allowances read from `pools` (for a month closing).
    var loadedAllowances: [String: Int64] = [:]
    /// The price last configured in the batch, and the prices in force (read on first use).
    var pricing: (unit: Int128, storage: Int128, position: Int64)?
    var loadedPricing: (unit: Int128, storage: Int128)??

    /// Funding history per project (the rule that reads it is `FundingHistory`'s).
    var fundingHistory: [String: FundingHistory] = [:]

    struct PoolMonthKey: Hashable { var pool: String; var month: String }
    struct PoolMonthRow {
        var status = MonthStatus.open
        var freeUsed: Int64 = 0
        var closingPosition: Int64?
        var closedPosition: Int64?
        var closingAllowance: Int64?
        var closingStoragePrice: Int128?
    }
    var poolMonths: [PoolMonthKey: PoolMonthRow] = [:]
    var poolMonthOrder = OrderedKeys<PoolMonthKey>()

    struct ProjectMonthKey: Hashable { var project: String; var month: String; var pool: String }
    /// What the batch adds to a project-month's counters (`Meter` columns and the pricing).
    struct ProjectMonthDelta {
        var counters: [Meter: Int128] = [:]
        var freeUnits: Int128 = 0
        var billedUnits: Int128 = 0
        var unitsAmount: Int128 = 0
        var storagePeak: Int64 = 0

        /// A storage measurement: the month bills its peak.
        mutating func measure(storage bytes: Int64) { storagePeak = max(storagePeak, bytes) }

        /// Counted units of `meter`, as `UnitPricing` priced them.
        mutating func add(counted meter: Meter, _ quantity: Int64, priced: UnitPricing.Priced) {
            counters[meter, default: 0] += Int128(quantity)
            freeUnits += Int128(priced.free)
            billedUnits += Int128(priced.billed)
            unitsAmount += priced.amount.value
        }
    }
    var projectMonths = OrderedTable<ProjectMonthKey, ProjectMonthDelta>()

    struct BalanceKey: Hashable { var account: String; var pool: String }
    /// What the batch adds to each balance row, by `BillingBalanceColumn.ordinal`.
    var balances = OrderedTable<BalanceKey, [Int128]>()

    /// A hold's `status` is its own lifecycle (`open`, then `captured` or `released`), not
    /// a month's `MonthStatus`: the two share a word, not a rule.
    struct Hold { var project: String; var pool: Pool; var amount: Int128; var status: String; var captured: Int128?; var position: Int64 }
    /// Holds read or placed in the batch (nil: not in the table), and which are new.
    var holds: [String: Hold?] = [:]
    var newHolds = OrderedKeys<String>()
    var settledHolds = OrderedKeys<String>()

    /// Entries posted in the batch, by id, as a correction needs them (keyed by the id's
    /// numbers: nearly every event posts one, and few are ever looked up); kept only when
    /// the batch has a correction to look them up.
    struct PostedEntry { var accounts: [String]; var project: String?; var pool: Pool; var month: String? }
    var postedEntries: [JournalEntryID: PostedEntry] = [:]
    /// Whether the schema is known to have the journal's entry index (which a rebuild
    /// builds at its first correction read from the table: `BillingSchema.entryIndex`).
    var entryIndexKnown = false
    let keepsPostedEntries: Bool

    // MARK: Reading

    /// What a batch must read before it folds, gathered from its events as they are decoded.
    struct PrefetchKeys: Sendable {
        /// Projects whose funding history the batch needs or changes.
        var fundedProjects = OrderedKeys<String>()
        /// Pools a project becomes funded by within the batch.
        var batchPools: [String: Set<String>] = [:]
        /// Each project-month the batch records usage in, once.
        var usageMonths = OrderedKeys<ProjectMonth>()
        /// Whether the batch corrects an entry (and so looks up the entries it posts).
        var corrects = false

        struct ProjectMonth: Hashable, Sendable { var project: String; var month: UTCMonth }

        mutating func note(_ e: BillingEvent, occurredAt: Timestamp) {
            switch e {
            case .usageRecorded(let u):
                fundedProjects.insert(u.projectID)
                usageMonths.insert(ProjectMonth(project: u.projectID, month: UTCMonth(containing: occurredAt)))
            case .fundingChanged(let f):
                fundedProjects.insert(f.projectID)
                batchPools[f.projectID, default: []].insert(f.funding.pool(of: f.projectID).description)
            case .projectCreated(let c):
                fundedProjects.insert(c.projectID)
                batchPools[c.projectID, default: []].insert(c.funding.pool(of: c.projectID).description)
            case .entryCorrected:
                corrects = true
            default: break
            }
        }
    }

    /// Reads, in one statement each, the funding of every project the batch's events name
    /// and the pool-months their usage may fall in, so that folding them reads nothing.
    func prefetch(_ keys: PrefetchKeys) throws {
        let projectIDs = keys.fundedProjects
        guard !projectIDs.isEmpty else { return }
        var changes: [String: [FundingHistory.Change]] = [:]
        for row in try db.execute("""
            SELECT project_id, effective_us, position, pool FROM funding WHERE project_id = ANY($1::text[])
            """, [PostgresTextArray(projectIDs.keys)]).rows {
            changes[try row.requireString(0), default: []].append(try row.requireFundingChange(from: 1))
        }
        for id in projectIDs.keys { fundingHistory[id] = FundingHistory(changes[id] ?? []) }
        // Any pool a project was or becomes funded by, for each month it records usage in.
        var poolsOf: [String: Set<String>] = [:]
        var wanted = OrderedKeys<PoolMonthKey>()
        for key in keys.usageMonths.keys {
            let pools = poolsOf[key.project] ?? {
                let pools = Set((fundingHistory[key.project]?.changes ?? []).map(\.pool.description)).union(keys.batchPools[key.project] ?? [])
                poolsOf[key.project] = pools
                return pools
            }()
            let month = key.month.description
            for pool in pools { wanted.insert(PoolMonthKey(pool: pool, month: month)) }
        }
        try loadPoolMonths(wanted.keys)
        // Usage is priced: read now rather than at the first usage event, where it would
        // end the journal's COPY under way (`streamJournal`).
        if !keys.usageMonths.isEmpty { _ = try prices() }
    }

    /// Reads pool-months; those not in the table are new and open.
    private func loadPoolMonths(_ keys: [PoolMonthKey]) throws {
        let missing = keys.filter { poolMonths[$0] == nil }
        guard !missing.isEmpty else { return }
        for key in missing { poolMonths[key] = PoolMonthRow() }
        for row in try db.execute("""
            SELECT pm.pool, pm.month, status, free_used, closing_position, closed_position, closing_allowance_bytes,
                   closing_storage_price
            FROM pool_months pm JOIN unnest($1::text[], $2::text[]) AS k (pool, month) ON pm.pool = k.pool AND pm.month = k.month
            """, [PostgresTextArray(missing.map(\.pool)), PostgresTextArray(missing.map(\.month))]).rows {
            poolMonths[PoolMonthKey(pool: try row.requireString(0), month: try row.requireString(1))] = PoolMonthRow(
                status: try row.requireMonthStatus(2), freeUsed: try row.requireInt64(3), closingPosition: row.int64(4),
                closedPosition: row.int64(5), closingAllowance: row.int64(6), closingStoragePrice: row.int128(7))
        }
    }

    /// A pool-month as the batch has it (read on first use); marks it to be written.
    func poolMonth(_ pool: String, _ month: String) throws -> PoolMonthRow {
        let key = PoolMonthKey(pool: pool, month: month)
        if poolMonths[key] == nil { try loadPoolMonths([key]) }
        poolMonthOrder.insert(key)
        return poolMonths[key]!
    }

    func setPoolMonth(_ pool: String, _ month: String, _ row: PoolMonthRow) {
        let key = PoolMonthKey(pool: pool, month: month)
        poolMonthOrder.insert(key)
        poolMonths[key] = row
    }

    /// The prices in force: the last configured in the batch, else the table's.
    func prices() throws -> (unit: Int128, storage: Int128) {
        if let pricing { return (pricing.unit, pricing.storage) }
        if let loadedPricing { return loadedPricing ?? (0, 0) }
        let rows = try db.execute("SELECT unit_price, storage_price FROM pricing")
        let loaded: (unit: Int128, storage: Int128)? = rows.rowCount == 0 ? nil : (try rows[0].requireInt128(0), try rows[0].requireInt128(1))
        loadedPricing = .some(loaded)
        return loaded ?? (0, 0)
    }

    /// A pool's storage allowance: the plan last set in the batch, else the table's (0 for
    /// a pool not yet in it).
    func allowance(of pool: String) throws -> Int64 {
        if let plan = plans[pool] { return plan.allowance }
        if let loaded = loadedAllowances[pool] { return loaded }
        let rows = try db.execute("SELECT allowance_storage_bytes FROM pools WHERE pool = $1", [pool])
        let value = rows.rowCount == 0 ? 0 : try rows[0].requireInt64(0)
        loadedAllowances[pool] = value
        return value
    }

    /// A project's funding history (read on first use).
    func history(of project: String) throws -> FundingHistory {
        if let known = fundingHistory[project] { return known }
        let rows = try db.execute("SELECT effective_us, position, pool FROM funding WHERE project_id = $1", [project]).rows
        let history = FundingHistory(try rows.map { try $0.requireFundingChange(from: 0) })
        fundingHistory[project] = history
        return history
    }

}

/// Keys in the order first inserted, without repeats: a batch writes rows in the order
/// its events first touched them.
struct OrderedKeys<Key: Hashable> {
    private(set) var keys: [Key] = []
    private var seen: Set<Key> = []
    var isEmpty: Bool { keys.isEmpty }
    mutating func insert(_ key: Key) { if seen.insert(key).inserted { keys.append(key) } }
    func contains(_ key: Key) -> Bool { seen.contains(key) }
}

extension OrderedKeys: Sendable where Key: Sendable {}
