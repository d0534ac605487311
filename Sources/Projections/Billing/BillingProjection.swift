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

    public init() {}

    public var tablesSQL: [String] { BillingSchema.statements }
    public var deferredIndexesSQL: [String] { BillingSchema.deferredIndexes }

    public func apply(_ events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        try apply(try decode(events), in: context)
    }

    public func prepare(_ events: ArraySlice<RecordedEvent>) -> (any Sendable)? { try? decode(events) }

    public func apply(prepared: any Sendable, events: ArraySlice<RecordedEvent>, in context: ProjectionContext) throws {
        guard let decoded = prepared as? Decoded else { return try apply(events, in: context) }
        try apply(decoded, in: context)
    }

    /// A batch's billing events, decoded once.
    struct Decoded: Sendable { var events: [(RecordedEvent, BillingEvent)] }

    private func decode(_ events: ArraySlice<RecordedEvent>) throws -> Decoded {
        var decoded: [(RecordedEvent, BillingEvent)] = []
        decoded.reserveCapacity(events.count)
        for event in events {
            try folding(event) { if let e = try BillingEvent(event) { decoded.append((event, e)) } }
        }
        return Decoded(events: decoded)
    }

    private func apply(_ decoded: Decoded, in context: ProjectionContext) throws {
        guard !decoded.events.isEmpty else { return }
        let batch = BillingBatch(db: context)
        try batch.prefetch(decoded.events)
        for (event, e) in decoded.events {
            batch.event = event
            try folding(event) {
                switch e {
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
        }
        try batch.write()
    }
}
