import EventStore
import LedgerDomain
import LedgerJSON

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

    public func apply(_ event: RecordedEvent, in context: ProjectionContext) throws {
        let fold = BillingFold(event: event, db: context)
        switch event.type {
        case PayerCreated.type: try fold.payerCreated(event.decode(PayerCreated.self))
        case ProjectCreated.type: try fold.projectCreated(event.decode(ProjectCreated.self))
        case ProjectFundingChanged.type: try fold.fundingChanged(event.decode(ProjectFundingChanged.self))
        case PlanSet.type: try fold.planSet(event.decode(PlanSet.self))
        case KeyIssued.type: try fold.keyIssued(event.decode(KeyIssued.self))
        case KeyRevoked.type: try fold.keyRevoked(event.decode(KeyRevoked.self))
        case PricingConfigured.type: try fold.pricingConfigured(event.decode(PricingConfigured.self))
        case CreditPosted.type: try fold.creditPosted(event.decode(CreditPosted.self))
        case EntryCorrected.type: try fold.entryCorrected(event.decode(EntryCorrected.self))
        case HoldPlaced.type: try fold.holdPlaced(event.decode(HoldPlaced.self))
        case HoldCaptured.type: try fold.holdCaptured(event.decode(HoldCaptured.self))
        case HoldReleased.type: try fold.holdReleased(event.decode(HoldReleased.self))
        case UsageRecorded.type: try fold.usageRecorded(event.decode(UsageRecorded.self))
        case MonthClosing.type: try fold.monthClosing(event.decode(MonthClosing.self))
        case MonthClosed.type: try fold.monthClosed(event.decode(MonthClosed.self))
        default: break
        }
    }
}
