import EventStore
import LedgerDomain

/// One use-case that appends: it reads what it judges through `ActReads`, decides with
/// its decider, and says what a lost race means. `ActRunner` runs it the same way for the
/// API, the console and `ledger admin`; front ends only parse into an act and render its
/// `ActOutcome`.
public protocol LedgerAct: Sendable {
    /// Decides on the state read now: throws the decider's `Refusal`, or `ProjectionBehind`
    /// when the read model has not applied the stream the act judges.
    func decide(_ reads: ActReads) throws -> Decision

    /// After the append found `stream` at `actualVersion` rather than the version the
    /// decision expected: the refusal the new state gives (a hold settled meanwhile, a key
    /// already revoked), or nil for a plain conflict to retry.
    func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal?
}

extension LedgerAct {
    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? { nil }
}
