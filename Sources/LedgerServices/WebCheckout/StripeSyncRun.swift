import Foundation
import LedgerDomain

/// One run of the Stripe events sync of an app (`stripe_sync_runs`): what it asked
/// (events created since `since`), what Stripe listed, what the log lacked and was
/// recorded, and how it ended.
public struct StripeSyncRun: Sendable, Encodable, Hashable {
    public var id: UUID
    public var appID: String
    public var since: Timestamp
    public var started: Timestamp
    public var finished: Timestamp?
    public var dryRun: Bool
    public var seen: Int
    /// Recorded (a dry run: that would have been).
    public var recovered: Int
    public var refused: Int
    public var failureCode: String?
    public var failure: String?

    enum CodingKeys: String, CodingKey {
        case since, started, finished, seen, recovered, refused, failure
        case id = "run_id", appID = "app_id", dryRun = "dry_run", failureCode = "failure_code"
    }

    public var succeeded: Bool { finished != nil && failureCode == nil }
}
