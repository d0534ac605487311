import EventStore
import LedgerDomain
import Projections

/// U1–U4: a batch of usage from the platform's metering services, recorded whole or
/// refused whole by `UsageDecider`, on the projects' state in the billing projection and,
/// for months that closed, the usage the log holds under the batch's ids.
public struct UsageRecordAct: LedgerAct {
    public var batch: [UsageDecider.Measurement]

    public init(batch: [UsageDecider.Measurement]) { self.batch = batch }

    /// The metering service reads its usage back from the billing projection, and sends a
    /// refused batch again under the same ids: the one write bounded by the projections' lag.
    public var admission: ActAdmission { .bounded(projection: BillingProjection().name, events: batch.count) }

    public func decide(_ reads: ActReads) throws -> Decision {
        let state = try state(reads)
        let decision = try UsageDecider.decide(batch, state: state, now: reads.now())
        guard !decision.events.isEmpty else {
            // Every event was recorded before its month closed: a retry, answered as one.
            throw AlreadyRecorded(position: state.recorded.values.map(\.position).max() ?? 0,
                                  "every event of the batch was recorded before")
        }
        return decision
    }

    /// A month of the batch started closing between the read and the append.
    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        UsageDecider.closedMeanwhile(stream: stream, batch: batch, state: try state(reads))
    }

    /// A usage id recorded before with other content: the batch is refused whole.
    public func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict? {
        .refused(Refusal(.usageIDConflict,
                         "a usage id of this batch was recorded before with different content: \(key ?? "a usage id"); nothing was recorded"))
    }

    /// How many events of the batch an append recorded anew, and how many were recorded
    /// before (by an earlier delivery, or before their month closed).
    public func counts(_ result: AppendResult) -> (accepted: Int, duplicates: Int) {
        let duplicates = result.events.filter(\.alreadyRecorded).count + (batch.count - result.events.count)
        return (batch.count - duplicates, duplicates)
    }

    private func state(_ reads: ActReads) throws -> UsageState {
        var state = try reads.billing.usageState(projects: UsageDecider.projects(of: batch))
        var recorded: [String: UsageState.Recorded] = [:]
        let ids = UsageDecider.idsToLookUp(batch, state: state)
        for event in try reads.events(withKeys: ids.map { UsageDecider.idempotencyKey(usageID: $0) }) where event.type == UsageRecorded.type {
            let e = try event.decode(UsageRecorded.self)
            let m = UsageDecider.Measurement(id: e.usageID, projectID: e.projectID, meter: e.meter.rawValue, quantity: e.quantity,
                                             occurredAt: event.occurredAt)
            recorded[e.usageID] = UsageState.Recorded(m, position: event.position)
        }
        state.recorded = recorded
        return state
    }
}
