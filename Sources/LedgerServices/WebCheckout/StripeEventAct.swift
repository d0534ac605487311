import LedgerDomain
import LedgerJSON

/// One of Stripe's events for an app's web checkout, verified by the front end (the
/// webhook's signature) or fetched from Stripe (a reconcile): decided by
/// `WebCheckoutDecider` on the app's state and recorded once under the event's id, the
/// same event either way (only the metadata says which).
public struct StripeEventAct: LedgerAct {
    public var event: StripeEventRecorded

    public init(_ event: StripeEventRecorded) { self.event = event }

    public func decide(_ reads: ActReads) throws -> Decision {
        try WebCheckoutDecider.record(event, app: try reads.app(event.appID))
    }

    /// The same event id with other content (Stripe rendered it again in another API
    /// version): what was recorded first stays.
    public func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict? {
        .alreadyRecorded(AlreadyRecorded("Stripe event \(event.eventID) was recorded before with other content"))
    }

    /// How an event reached the ledger.
    public enum Source: Sendable, Hashable {
        /// Stripe sent it to the app's webhook endpoint (this request).
        case webhook(requestID: String?)
        /// A reconcile found it in Stripe's events (`run` names the run).
        case reconcile(run: String)
    }

    /// The metadata its event is appended with: the processor as the actor, the event's id
    /// as the correlation, and where it came from (`source`).
    public static func metadata(for event: StripeEventRecorded, source: Source) -> EventMetadata {
        switch source {
        case .webhook(let requestID):
            return EventMetadata(actor: Actor(.processor, "stripe-webhooks"), requestID: requestID, correlationID: event.eventID,
                                 extra: ["source": "webhook"])
        case .reconcile(let run):
            return EventMetadata(actor: Actor(.processor, "stripe-events-api"), correlationID: event.eventID,
                                 extra: ["source": "reconcile", "run_id": .string(run)])
        }
    }
}
