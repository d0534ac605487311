/// A command the ledger refuses: well-formed, but the rules or the ledger's state forbid
/// it. Nothing is appended. The code is stable, for clients and scripts; the message
/// names what was wrong, for people; `errors` lists each finding when there are several.
public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// What the command creates exists already.
        public static let alreadyExists = Code("already_exists")
        /// Something the command names does not exist.
        public static let notFound = Code("not_found")
        /// A value outside what the ledger accepts (an amount or a quantity past its limit,
        /// an id the log cannot name).
        public static let outOfRange = Code("out_of_range")
        /// The hold was captured or released before: a hold is settled once.
        public static let alreadySettled = Code("already_settled")
        /// The key was revoked before.
        public static let alreadyRevoked = Code("already_revoked")
        /// A capture larger than its hold.
        public static let exceedsHold = Code("exceeds_hold")
        /// A change that would take effect before it is recorded.
        public static let effectiveInPast = Code("effective_at_in_past")
        /// A month that has not ended, closed without forcing it.
        public static let monthNotEnded = Code("month_not_ended")
        /// A month that is already closed (or closing) for the pool.
        public static let monthClosed = Code("month_closed")
        /// A correction that would reverse more of an entry than the entry moved, or add to a
        /// credit (more credit is a grant).
        public static let correctionExceedsEntry = Code("correction_exceeds_entry")
        /// A usage id recorded before with other content.
        public static let usageIDConflict = Code("usage_id_conflict")
        /// A usage batch with invalid events (listed in `errors`).
        public static let invalidUsageBatch = Code("invalid_usage_batch")
    }

    public var code: Code
    public var message: String
    public var errors: [String]

    public init(_ code: Code, _ message: String, errors: [String] = []) {
        self.code = code
        self.message = message
        self.errors = errors
    }

    public var description: String { "\(code): \(message)" }
}
