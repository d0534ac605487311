import LedgerJSON

/// Decides the webhook subscription commands (`ledger admin webhook …`). What the folds
/// and the dispatcher rely on is enforced here: a subscription exists once, names at
/// least one subject that exists and types that exist, is billed to a project that
/// exists, and rotates or is disabled only while it is active.
public enum WebhookDecider {
    public static func stream(_ id: String) -> String { "webhook-" + id }

    /// How long the secret before a rotation stays valid, by default.
    public static let defaultRotationOverlap: Int64 = 24 * 3600 * 1_000_000
    /// A subscription covers at most this many subjects.
    public static let maximumSubjects = 50

    /// A subscription as its stream tells it.
    public struct Subscription: Sendable, Hashable {
        public var id: String
        public var active: Bool
        public var generation: Int64

        public init(id: String, active: Bool, generation: Int64) {
            self.id = id
            self.active = active
            self.generation = generation
        }

        /// Folds the subscription's own stream, oldest first; nil when it has no event.
        public init?(id: String, stream events: [(type: String, data: JSONValue)]) throws {
            guard events.first?.type == WebhookSubscriptionAdded.type else { return nil }
            self.init(id: id, active: true, generation: 1)
            for event in events.dropFirst() {
                switch event.type {
                case WebhookSubscriptionDisabled.type: active = false
                case WebhookSecretRotated.type: generation = try JSONValueDecoder().decode(WebhookSecretRotated.self, from: event.data).generation
                default: continue
                }
            }
        }
    }

    /// `project` pays for the attempts; every subject must be in `known` (those the
    /// command found in the projections); `url` was checked by the outbound policy.
    public static func add(id: String, project: String, url: String, subjects: [WebhookSubject], types: [String],
                           balanceLowThreshold: Millicredits?, projectExists: Bool,
                           known: Set<WebhookSubject>) throws(Refusal) -> Decision {
        try AccountsDecider.checkIdentifier(id, "webhook")
        guard projectExists else { throw Refusal(.notFound, "project \(project) does not exist") }
        guard !subjects.isEmpty else { throw Refusal(.outOfRange, "a subscription covers at least one subject") }
        guard subjects.count <= maximumSubjects else {
            throw Refusal(.outOfRange, "a subscription covers at most \(maximumSubjects) subjects, got \(subjects.count)")
        }
        let missing = subjects.filter { !known.contains($0) }
        guard missing.isEmpty else {
            throw Refusal(.notFound, "no such subject: " + missing.map(\.description).joined(separator: ", "))
        }
        let unknown = types.filter { !WebhookMessageType.isKnownPattern($0) }
        guard unknown.isEmpty else {
            throw Refusal(.outOfRange, "no message type matches " + unknown.joined(separator: ", ")
                          + " (known: " + WebhookMessageType.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        if let threshold = balanceLowThreshold, threshold < .zero {
            throw Refusal(.outOfRange, "the balance.low threshold is an amount of millicredits, 0 or more")
        }
        let event = WebhookSubscriptionAdded(webhookID: id, projectID: project, url: url,
                                             subjects: Array(Set(subjects)).sorted(), types: Array(Set(types)).sorted(),
                                             balanceLowThreshold: balanceLowThreshold)
        return Decision(PendingEvent(event, on: stream(id)),
                        expecting: [stream(id): .noStream, Pool.project(project).ownerStream: .streamExists])
    }

    public static func disable(_ subscription: Subscription?, id: String, version: Int64) throws(Refusal) -> Decision {
        let current = try active(subscription, id: id)
        return Decision(PendingEvent(WebhookSubscriptionDisabled(webhookID: current.id), on: stream(id)),
                        expecting: [stream(id): .exactly(version)])
    }

    /// A new secret generation; the one before stays valid for `overlap` microseconds.
    public static func rotate(_ subscription: Subscription?, id: String, version: Int64, now: Timestamp,
                              overlap: Int64 = defaultRotationOverlap) throws(Refusal) -> Decision {
        let current = try active(subscription, id: id)
        guard (0...(30 * 24 * 3600 * 1_000_000)).contains(overlap), let until = Timestamp(microseconds: now.microseconds + overlap) else {
            throw Refusal(.outOfRange, "the old secret stays valid for 0 to 30 days")
        }
        let event = WebhookSecretRotated(webhookID: current.id, generation: current.generation + 1, previousValidUntil: until)
        return Decision(PendingEvent(event, on: stream(id)), expecting: [stream(id): .exactly(version)])
    }

    private static func active(_ subscription: Subscription?, id: String) throws(Refusal) -> Subscription {
        guard let subscription else { throw Refusal(.notFound, "webhook \(id) does not exist") }
        guard subscription.active else { throw Refusal(.alreadyDisabled, "webhook \(id) is disabled") }
        return subscription
    }
}
