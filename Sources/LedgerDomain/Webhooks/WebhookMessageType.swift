/// The messages a webhook subscription can ask for (docs/webhooks.md). A subscription's
/// filter names types exactly or by family (`subscription.*`); none means all.
public enum WebhookMessageType: String, Sendable, Hashable, CaseIterable, Codable {
    case subscriptionStarted = "subscription.started"
    case subscriptionRenewed = "subscription.renewed"
    case subscriptionUpgraded = "subscription.upgraded"
    case subscriptionDowngraded = "subscription.downgraded"
    case subscriptionExpired = "subscription.expired"
    case subscriptionRefunded = "subscription.refunded"
    case planChanged = "plan.changed"
    case monthClosed = "month.closed"
    case balanceLow = "balance.low"
    case correctionPosted = "correction.posted"
    case usageMonthSummary = "usage.month_summary"

    /// Whether `filter` (exact types and `family.*` patterns; empty: every type) selects `type`.
    public static func matches(_ type: WebhookMessageType, filter: [String]) -> Bool {
        filter.isEmpty || filter.contains { pattern in
            pattern.hasSuffix(".*") ? type.rawValue.hasPrefix(String(pattern.dropLast())) : pattern == type.rawValue
        }
    }

    /// Whether `pattern` selects at least one type: a filter naming nothing is a typo.
    public static func isKnownPattern(_ pattern: String) -> Bool {
        allCases.contains { matches($0, filter: [pattern]) }
    }
}
