/// `webhook.subscription_added`, on `webhook-<id>`: messages about `subjects` (of the
/// `types` asked for; all when empty) are sent to `url`, signed with the subscription's
/// secret of generation 1, and each delivery attempt is billed to `project_id` (U4).
public struct WebhookSubscriptionAdded: DomainEvent {
    public static let type = "webhook.subscription_added"
    public var webhookID: String
    public var projectID: String
    public var url: String
    public var subjects: [WebhookSubject]
    public var types: [String]
    /// `balance.low` is sent when an account's available balance goes below this.
    public var balanceLowThreshold: Millicredits?

    enum CodingKeys: String, CodingKey {
        case webhookID = "webhook_id", projectID = "project_id", url, subjects, types
        case balanceLowThreshold = "balance_low_threshold"
    }

    public init(webhookID: String, projectID: String, url: String, subjects: [WebhookSubject], types: [String],
                balanceLowThreshold: Millicredits?) {
        self.webhookID = webhookID
        self.projectID = projectID
        self.url = url
        self.subjects = subjects
        self.types = types
        self.balanceLowThreshold = balanceLowThreshold
    }
}

/// `webhook.subscription_disabled`, on `webhook-<id>`: nothing more is sent to it.
public struct WebhookSubscriptionDisabled: DomainEvent {
    public static let type = "webhook.subscription_disabled"
    public var webhookID: String
    enum CodingKeys: String, CodingKey { case webhookID = "webhook_id" }
    public init(webhookID: String) { self.webhookID = webhookID }
}

/// `webhook.secret_rotated`, on `webhook-<id>`: messages are signed with the secret of
/// `generation` from now on, and also with the one before until `previous_valid_until`,
/// so that a receiver can switch without missing a message.
public struct WebhookSecretRotated: DomainEvent {
    public static let type = "webhook.secret_rotated"
    public var webhookID: String
    public var generation: Int64
    public var previousValidUntil: Timestamp

    enum CodingKeys: String, CodingKey {
        case webhookID = "webhook_id", generation, previousValidUntil = "previous_valid_until"
    }

    public init(webhookID: String, generation: Int64, previousValidUntil: Timestamp) {
        self.webhookID = webhookID
        self.generation = generation
        self.previousValidUntil = previousValidUntil
    }
}
