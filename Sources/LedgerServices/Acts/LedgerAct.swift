import EventStore
import LedgerDomain

/// One use-case that appends: it reads what it judges through `ActReads`, decides with
/// its decider, and says what a lost race means. `ActRunner` runs it the same way for the
/// API, the console and `ledger admin`; front ends only parse into an act and render its
/// `ActOutcome`.
public protocol LedgerAct: Sendable {
    /// Decides on the state read now: throws the decider's `Refusal`, `ProjectionBehind`
    /// when the read model has not applied the stream the act judges, or `AlreadyRecorded`
    /// when the log holds what the act would record (a decision with no events says so too).
    func decide(_ reads: ActReads) throws -> Decision

    /// After the append found `stream` at `actualVersion` rather than the version the
    /// decision expected: the refusal the new state gives (a hold settled meanwhile, a key
    /// already revoked), or nil for a plain conflict to retry.
    func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal?

    /// After the append found an idempotency key of `decision` (its own, or `key` of one of
    /// its events) recorded before with other content: what that means for this act, or nil
    /// for a plain idempotency conflict.
    func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict?

    /// Whether the act's append waits for the projection its writer reads back
    /// (`AdmissionControl`), or is admitted whatever the lag: only what a client can send
    /// again is bounded (a usage batch); what may never come back (Apple's notifications,
    /// Stripe's events) and operators' acts are always admitted.
    var admission: ActAdmission { get }
}

extension LedgerAct {
    public var admission: ActAdmission { .always }
    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? { nil }
    public func keyTaken(_ key: String?, by decision: Decision, _ reads: ActReads) throws -> RaceVerdict? { nil }
}

/// What a race lost on an idempotency key means for the act that lost it.
public enum RaceVerdict: Sendable {
    /// The state now refuses the act, with the decider's code.
    case refused(Refusal)
    /// Another append recorded what this act asks (a claim, a grant, a delivery of the same
    /// notification): the act is done, nothing new was written.
    case alreadyRecorded(AlreadyRecorded)
    /// The race changed the state the act judges, not its answer: decide again at once.
    case decideAgain
}

/// The log already holds what an act would record: nothing is appended and the act is
/// answered as done.
public struct AlreadyRecorded: Error, Sendable, Hashable {
    /// Where the log holds it, when the act knows (the latest of a usage batch's events).
    public var position: Int64?
    public var detail: String

    public init(position: Int64? = nil, _ detail: String) {
        self.position = position
        self.detail = detail
    }
}
