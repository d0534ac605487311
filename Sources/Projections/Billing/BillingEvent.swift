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

    /// Every type `init` decodes: billing's `eventTypes`.
    static let types: Set<String> = [PayerCreated.type, ProjectCreated.type, ProjectFundingChanged.type, PlanSet.type, KeyIssued.type,
                                     KeyRevoked.type, PricingConfigured.type, CreditPosted.type, EntryCorrected.type, HoldPlaced.type,
                                     HoldCaptured.type, HoldReleased.type, UsageRecorded.type, MonthClosing.type, MonthClosed.type]

    /// The event decoded, or nil for a type billing does not fold.
    init?(_ event: RecordedEvent) throws {
        switch event.type {
        case PayerCreated.type: self = .payerCreated(try event.decode(PayerCreated.self))
        case ProjectCreated.type: self = .projectCreated(try event.decode(ProjectCreated.self))
        case ProjectFundingChanged.type: self = .fundingChanged(try event.decode(ProjectFundingChanged.self))
        case PlanSet.type: self = .planSet(try event.decode(PlanSet.self))
        case KeyIssued.type: self = .keyIssued(try event.decode(KeyIssued.self))
        case KeyRevoked.type: self = .keyRevoked(try event.decode(KeyRevoked.self))
        case PricingConfigured.type: self = .pricingConfigured(try event.decode(PricingConfigured.self))
        case CreditPosted.type: self = .creditPosted(try event.decode(CreditPosted.self))
        case EntryCorrected.type: self = .entryCorrected(try event.decode(EntryCorrected.self))
        case HoldPlaced.type: self = .holdPlaced(try event.decode(HoldPlaced.self))
        case HoldCaptured.type: self = .holdCaptured(try event.decode(HoldCaptured.self))
        case HoldReleased.type: self = .holdReleased(try event.decode(HoldReleased.self))
        case UsageRecorded.type: self = .usageRecorded(try event.decode(UsageRecorded.self))
        case MonthClosing.type: self = .monthClosing(try event.decode(MonthClosing.self))
        case MonthClosed.type: self = .monthClosed(try event.decode(MonthClosed.self))
        default: return nil
        }
    }
}
