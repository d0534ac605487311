/// Decides a batch of usage measurements from the platform's metering services (U1–U7):
/// accepted whole, or refused whole with every finding listed.
///
/// Each accepted measurement becomes `usage.recorded` on `usage-<project>`, idempotent on
/// its id (`usage:<id>`): a measurement sent again with the same content is counted
/// once, with other content it is a conflict the append reports.
public enum UsageDecider {
    /// A project's usage stream, `usage-<project_id>`.
    public static func stream(_ project: String) -> String { "usage-" + project }

    /// The idempotency key of a measurement's `usage.recorded`, `usage:<id>`: what makes a
    /// measurement sent again count once, and what ingestion looks a closed month's ids up
    /// by in the log. Every writer of usage events and every reader of them by key builds
    /// it here, so that a retry can never miss the event it repeats.
    public static func idempotencyKey(usageID: String) -> String { "usage:" + usageID }

    /// One measurement as the request gave it, its JSON already decoded.
    public struct Measurement: Sendable, Hashable {
        public var id: String
        public var projectID: String
        public var meter: String
        public var quantity: Int64
        public var occurredAt: Timestamp

        public init(id: String, projectID: String, meter: String, quantity: Int64, occurredAt: Timestamp) {
            self.id = id
            self.projectID = projectID
            self.meter = meter
            self.quantity = quantity
            self.occurredAt = occurredAt
        }
    }

    public static let maximumBatch = 1_000
    /// How far ahead of the service's clock an `occurred_at` may be (clock skew).
    public static let futureTolerance: Int64 = 5 * 60 * 1_000_000

    /// The projects a batch names, for loading its state.
    public static func projects(of batch: [Measurement]) -> [String] {
        Array(Set(batch.map(\.projectID).filter(Identifier.isValid))).sorted()
    }

    /// A batch of `count` events is 1 to `maximumBatch` long (checked again by `decide`;
    /// a decoder checks it first, before it lists an error per event).
    public static func checkSize(_ count: Int) throws(Refusal) {
        guard (1...maximumBatch).contains(count) else {
            throw Refusal(.invalidUsageBatch, "a batch carries 1 to \(maximumBatch) events, this one \(count)")
        }
    }

    /// The refusal of a batch with invalid events, each error naming its event
    /// (`events[3]: …`), whether the decoder or the decider found it.
    public static func invalid(_ errors: [String]) -> Refusal {
        Refusal(.invalidUsageBatch, "\(errors.count) of the batch's events are invalid; nothing was recorded", errors: errors)
    }

    /// The ids of `batch` whose month is closing or closed for its pool: the caller looks
    /// them up in the log (`UsageState.recorded`), so that a retry after the close is
    /// answered as the duplicate it is (U, docs/billing.md).
    public static func idsToLookUp(_ batch: [Measurement], state: UsageState) -> [String] {
        batch.filter { m in poolMonth(of: m, state: state).map(state.closedMonths.contains) ?? false }.map(\.id)
    }

    /// The pool-month a measurement is billed to: its project's pool at `occurred_at`.
    static func poolMonth(of m: Measurement, state: UsageState) -> PoolMonth? {
        state.funding[m.projectID]?.pool(at: m.occurredAt).map { PoolMonth($0, UTCMonth(containing: m.occurredAt)) }
    }

    /// Each new measurement becomes `usage.recorded`; the append expects the stream of
    /// every pool-month it adds to to be empty (`PoolMonth.stream`), so that usage can no
    /// longer be recorded for a month once its closing is in the log. A measurement of a
    /// closed month that the log holds already, with the same content, is a duplicate.
    public static func decide(_ batch: [Measurement], state: UsageState, now: Timestamp) throws(Refusal) -> Decision {
        try checkSize(batch.count)
        var errors: [String] = []
        var conflicts: [String] = []
        var seen: [String: Measurement] = [:]
        var events: [PendingEvent] = []
        var gates: [String: ExpectedVersion] = [:]
        for (i, m) in batch.enumerated() {
            if let problem = problem(with: m, state: state, now: now) {
                errors.append("events[\(i)]: \(problem)")
                continue
            }
            if let earlier = seen[m.id] {
                if earlier != m { errors.append("events[\(i)]: id \(m.id) appears twice in the batch with different content") }
                continue
            }
            seen[m.id] = m
            let poolMonth = poolMonth(of: m, state: state)!   // `problem` found the project's pool
            if state.closedMonths.contains(poolMonth) {
                switch state.recorded[m.id] {
                case let recorded? where recorded.measurement == m: continue   // a retry: counted once already
                case _?: conflicts.append("events[\(i)]: usage id \(m.id) was recorded before with different content")
                case nil: errors.append("events[\(i)]: \(poolMonth.month) is closed for \(poolMonth.pool)")
                }
                continue
            }
            gates[poolMonth.stream] = .noStream
            let recorded = UsageRecorded(usageID: m.id, projectID: m.projectID, meter: Meter(rawValue: m.meter)!, quantity: m.quantity)
            events.append(PendingEvent(recorded, on: stream(m.projectID), occurredAt: m.occurredAt, idempotencyKey: idempotencyKey(usageID: m.id)))
        }
        if !conflicts.isEmpty && errors.isEmpty {
            throw Refusal(.usageIDConflict, "a usage id of this batch was recorded before with different content; nothing was recorded",
                          errors: conflicts)
        }
        guard errors.isEmpty && conflicts.isEmpty else { throw invalid(errors + conflicts) }
        return Decision(events, expecting: gates)
    }

    /// The refusal when a month's closing was appended between the decision and the append
    /// (the append expected `stream` empty): nothing was recorded, and the events of that
    /// month are named.
    public static func closedMeanwhile(stream: String, batch: [Measurement], state: UsageState) -> Refusal {
        let errors = batch.enumerated().compactMap { i, m -> String? in
            guard let pm = poolMonth(of: m, state: state), pm.stream == stream else { return nil }
            return "events[\(i)]: \(pm.month) started closing for \(pm.pool) while this batch was recorded"
        }
        return invalid(errors.isEmpty ? ["a month of this batch started closing while it was recorded"] : errors)
    }

    /// What is wrong with one measurement, if anything.
    static func problem(with m: Measurement, state: UsageState, now: Timestamp) -> String? {
        guard (1...128).contains(m.id.utf8.count), m.id.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            return "id must be 1-128 printable ASCII characters without spaces"
        }
        guard Identifier.isValid(m.projectID) else { return "project_id must be a project id" }
        guard let meter = Meter(rawValue: m.meter) else {
            return "unknown meter \(m.meter.debugDescription); known: \(Meter.allCases.map(\.rawValue).joined(separator: ", "))"
        }
        let maximum = BillingLimits.maximumQuantity(meter)
        guard (0...maximum).contains(m.quantity) else {
            return m.quantity < 0 ? "quantity must not be negative, got \(m.quantity)"
                                  : "quantity \(m.quantity) is above the limit of \(maximum) for \(meter.rawValue) in one event (docs/billing.md)"
        }
        guard m.occurredAt.microseconds <= now.microseconds + futureTolerance else {
            return "occurred_at \(m.occurredAt.iso8601) is in the future"
        }
        guard poolMonth(of: m, state: state) != nil else { return "no project \(m.projectID)" }
        return nil
    }
}
