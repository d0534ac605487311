import EventStore
import LedgerDomain
import LedgerJSON
import ProjectionEngine

/// Payers, projects, keys, prices, the journal, balances, holds and monthly usage: the
/// state the billing reads (B, J, U) and the ingestion's checks come from.
///
/// Accounts are `project:<id>` and `payer:<id>`. An entry of a funded project is written
/// twice: to the project's account and, as a mirror with the same id, to its payer's, so
/// each account's journal is one index range scan.
public struct BillingProjection: Projection {
    public let name = "billing"
    /// 2: corrections keyed by account too; a closing month records its price and allowance.
    /// 3: sums in `numeric`, so that no accepted event can overflow them.
    public let version = 3
    public let tables = ["payers", "projects", "funding", "pools", "keys", "pricing", "journal", "corrections",
                         "balances", "holds", "pool_months", "project_months", "charges", "late_usage"]

    /// How many bytes of journal rows a batch gathers before it sends them to the server,
    /// still folding (`BillingBatch.streamJournal`); tests set it low to send every row.
    public var journalStreamBytes = 64 << 10

    public init() {}

    public var tablesSQL: [String] { BillingSchema.statements }
    public var eventTypes: Set<String>? { BillingEvent.types }
    public var deferredIndexesSQL: [String] { BillingSchema.deferredIndexes }

    public func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        try apply(try decode(events), in: context)
    }

    public func prepare(_ events: ArraySlice<RecordedEvent>) -> (any Sendable)? { try? decode(events) }

    public func apply(prepared: any Sendable, events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        guard let decoded = prepared as? Decoded else { return try apply(events, in: context) }
        try apply(decoded, in: context)
    }

    /// A batch's billing events, decoded once, and what the batch must read before folding
    /// them: made on the rebuild's decoding thread (`prepare`), so that the fold's thread,
    /// the rebuild's slowest, neither decodes nor walks the batch an extra time.
    struct Decoded: Sendable {
        /// The events billing folds, in log order, and each one's decoded payload.
        var events: [RecordedEvent] = []
        var payloads: [BillingEvent] = []
        /// When each event occurred, read once here rather than from the event (a shared
        /// object whose reference count every projection's thread touches) as it folds.
        var occurred: [Timestamp] = []
        var keys = BillingBatch.PrefetchKeys()
    }

    private func decode(_ events: ArraySlice<RecordedEvent>) throws -> Decoded {
        var decoded = Decoded()
        decoded.events.reserveCapacity(events.count)
        decoded.payloads.reserveCapacity(events.count)
        decoded.occurred.reserveCapacity(events.count)
        for event in events {
            try folding(event) {
                guard let e = try BillingEvent(event) else { return }
                decoded.events.append(event)
                decoded.payloads.append(e)
                decoded.occurred.append(event.occurredAt)
                decoded.keys.note(e, occurredAt: event.occurredAt)
            }
        }
        return decoded
    }

    private func apply(_ decoded: Decoded, in context: ProjectionContext) throws {
        guard !decoded.events.isEmpty else { return }
        let batch = BillingBatch(db: context, events: decoded.events, corrects: decoded.keys.corrects,
                                 journalStreamBytes: journalStreamBytes)
        try batch.prefetch(decoded.keys)
        for i in decoded.payloads.indices {
            batch.fold(at: i, occurredAt: decoded.occurred[i])
            try folding(at: batch.position) {
                switch decoded.payloads[i] {
                case .payerCreated(let e): batch.payerCreated(e)
                case .projectCreated(let e): try batch.projectCreated(e)
                case .fundingChanged(let e): try batch.fundingChanged(e)
                case .planSet(let e): batch.planSet(e)
                case .keyIssued(let e): batch.keyIssued(e)
                case .keyRevoked(let e): batch.keyRevoked(e)
                case .pricingConfigured(let e): batch.pricingConfigured(e)
                case .creditPosted(let e): batch.creditPosted(e)
                case .entryCorrected(let e): try batch.entryCorrected(e)
                case .holdPlaced(let e): batch.holdPlaced(e)
                case .holdCaptured(let e): try batch.holdCaptured(e)
                case .holdReleased(let e): try batch.holdReleased(e)
                case .usageRecorded(let e): try batch.usageRecorded(e)
                case .monthClosing(let e): try batch.monthClosing(e)
                case .monthClosed(let e): try batch.monthClosed(e)
                }
            }
            try batch.streamJournal()
        }
        try batch.write()
    }
}
