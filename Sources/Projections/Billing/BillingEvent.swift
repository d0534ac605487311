import EventStore
import LedgerDomain

/// A billing event decoded once per batch: the batch reads what it needs to prefetch
/// from these before it folds them.
enum BillingEvent: Sendable {
    case payerCreated(PayerCreated)
    case projectCreated(ProjectCreated)
    case fundingChanged(ProjectFundingChanged)
    case planSet(PlanSet)
    case keyIssued(KeyIssued)
    case keyRevoked(KeyRevoked)
    case pricingConfigured(PricingConfigured)
    case creditPosted(CreditPosted)
    case entryCorrected(EntryCorrected)
    case holdPlaced(HoldPlaced)
    case holdCaptured(HoldCaptured)
    case holdReleased(HoldReleased)
    case usageRecorded(UsageRecorded)
    case monthClosing(MonthClosing)
    case monthClosed(MonthClosed)

    /// How each type billing folds is decoded, by type: one lookup per event (a replay's
    /// million), where a `switch` compared the type with each case in turn.
    private static let decoders: [String: @Sendable (RecordedEvent) throws -> BillingEvent] = [
        PayerCreated.type: { .payerCreated(try $0.decode(PayerCreated.self)) },
        ProjectCreated.type: { .projectCreated(try $0.decode(ProjectCreated.self)) },
        ProjectFundingChanged.type: { .fundingChanged(try $0.decode(ProjectFundingChanged.self)) },
        PlanSet.type: { .planSet(try $0.decode(PlanSet.self)) },
        KeyIssued.type: { .keyIssued(try $0.decode(KeyIssued.self)) },
        KeyRevoked.type: { .keyRevoked(try $0.decode(KeyRevoked.self)) },
        PricingConfigured.type: { .pricingConfigured(try $0.decode(PricingConfigured.self)) },
        CreditPosted.type: { .creditPosted(try $0.decode(CreditPosted.self)) },
        EntryCorrected.type: { .entryCorrected(try $0.decode(EntryCorrected.self)) },
        HoldPlaced.type: { .holdPlaced(try $0.decode(HoldPlaced.self)) },
        HoldCaptured.type: { .holdCaptured(try $0.decode(HoldCaptured.self)) },
        HoldReleased.type: { .holdReleased(try $0.decode(HoldReleased.self)) },
        UsageRecorded.type: { .usageRecorded(try $0.decode(UsageRecorded.self)) },
        MonthClosing.type: { .monthClosing(try $0.decode(MonthClosing.self)) },
        MonthClosed.type: { .monthClosed(try $0.decode(MonthClosed.self)) },
    ]

    /// Every type billing folds: its `eventTypes`.
    static let types = Set(decoders.keys)

    /// The event decoded, or nil for a type billing does not fold.
    init?(_ event: RecordedEvent) throws {
        guard let decode = Self.decoders[event.type] else { return nil }
        self = try decode(event)
    }
}
