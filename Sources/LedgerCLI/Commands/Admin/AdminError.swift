import LedgerDomain
import LedgerServices

/// A request the ledger refuses: well-formed, but the log's state or the clock forbids it
/// (`ledger admin` exits 1). Nothing was appended. Codes are stable, for scripts;
/// `message` names what was wrong, for people.
public struct AdminError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable reason code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code as scripts see it, e.g. `already_exists`.
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The payer, project, key or hold to create exists already.
        public static let alreadyExists = Code(rawValue: "already_exists")
        /// A payer, project, pool, key, hold or journal entry named by the request does not exist.
        public static let notFound = Code(rawValue: "not_found")
        /// The hold was captured or released before: a hold is settled once.
        public static let alreadySettled = Code(rawValue: "already_settled")
        /// The key was revoked before.
        public static let alreadyRevoked = Code(rawValue: "already_revoked")
        /// A capture larger than its hold.
        public static let exceedsHold = Code(rawValue: "exceeds_hold")
        /// A funding change that would take effect before it is recorded.
        public static let effectiveInPast = Code(rawValue: "effective_at_in_past")
        /// A month that has not ended, closed without `--force`.
        public static let monthNotEnded = Code(rawValue: "month_not_ended")
        /// A month that is already closed for the pool.
        public static let monthClosed = Code(rawValue: "month_closed")
        /// The billing projection did not reach the log's head in time.
        public static let projectionBehind = Code(rawValue: "projection_behind")
        /// The billing projection stopped on an event it cannot apply, or was never created.
        public static let projectionUnavailable = Code(rawValue: "projection_unavailable")
        /// The log changed between the command's checks and its append; nothing was written.
        public static let conflict = Code(rawValue: "conflict")
        /// The event store refused or could not take the append; nothing was appended.
        public static let appendFailed = Code(rawValue: "append_failed")
        /// The database failed during the commit: the append may or may not be in the log.
        /// Re-running with the same `--idempotency-key` records it at most once.
        public static let outcomeUnknown = Code(rawValue: ActOutcome.outcomeUnknownCode)
        /// A setting the command needs is missing (LEDGER_WEBHOOK_KEY for webhook secrets).
        public static let configuration = Code(rawValue: "configuration_missing")
        /// A signed checkpoint whose signature or root does not check (`ledger audit checkpoint`).
        public static let checkpointInvalid = Code(rawValue: "checkpoint_invalid")
        /// `--operator` or LEDGER_OPERATOR names someone other than the database login,
        /// under whose name every act is recorded.
        public static let operatorNotLogin = Code(rawValue: "operator_not_login")
        /// A URL the outbound policy refuses (not https, credentials in it).
        public static let refusedURL = Code(rawValue: "refused_url")
    }

    /// Why, for scripts.
    public var code: Code
    /// What was wrong, for people.
    public var message: String

    /// A refusal with its code and message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A decider's refusal, with its code.
    public init(_ refusal: Refusal) {
        self.code = Code(rawValue: refusal.code.rawValue)
        self.message = refusal.errors.isEmpty ? refusal.message : refusal.message + ": " + refusal.errors.joined(separator: "; ")
    }

    public var description: String { "\(code): \(message)" }
}
