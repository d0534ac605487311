import Foundation
import LedgerDomain

/// One drift check of a projection (`projection_drift_checks`, migration 0020): the
/// position its accounts were folded again to, which it compared, which it found drifted
/// and what differs for each, and how it ended.
public struct DriftCheckRecord: Sendable, Encodable, Hashable {
    /// One figure of an account that differs: the live row's value, and the value folded
    /// again from the log (`absent` where one side has no such row).
    public struct Finding: Sendable, Encodable, Hashable {
        public var account: String
        public var figure: String
        public var live: String
        public var refolded: String

        public init(account: String, figure: String, live: String, refolded: String) {
            self.account = account
            self.figure = figure
            self.live = live
            self.refolded = refolded
        }
    }

    public var id: UUID
    public var projection: String
    /// The live projection's position when the check ran; nil when it did not get so far.
    public var position: Int64?
    public var started: Timestamp
    public var finished: Timestamp?
    /// The accounts folded again and compared.
    public var accounts: [String]
    /// Those whose rows differ from the log's fold.
    public var drifted: [String]
    /// Accounts chosen and not compared, each with why (`payer:acme: …`).
    public var skipped: [String]
    /// Events folded again.
    public var events: Int
    /// What differs, account by account (at most `DriftChecks.findingsPerAccount` each).
    public var findings: [Finding]
    /// A check that did not run or stopped: `rebuild_running`, `not_created`,
    /// `version_mismatch` (each benign, and tried again at the next check) or `check_failed`.
    public var failureCode: String?
    public var failure: String?

    enum CodingKeys: String, CodingKey {
        case projection, position, started, finished, accounts, drifted, skipped, events, findings, failure
        case id = "check_id", failureCode = "failure_code"
    }

    /// Whether it compared what it chose (it may still have found drift).
    public var completed: Bool { finished != nil && failureCode == nil }

    /// The findings of `account`, in order.
    public func findings(of account: String) -> [Finding] { findings.filter { $0.account == account } }

    /// Failures that say nothing is wrong: the check is tried again at its next turn.
    public static let benignFailures: Set<String> = ["rebuild_running", "not_created", "version_mismatch"]
}
