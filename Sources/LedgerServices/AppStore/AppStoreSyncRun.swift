import Foundation
import LedgerDomain

/// One run of the notification history sync for one app and environment: the window it
/// asked Apple for, how far it got, what it found (`appstore_sync_runs`, migration 0015).
public struct AppStoreSyncRun: Sendable, Hashable, Encodable {
    public var id: UUID
    public var bundleID: String
    /// `production`, `sandbox` or `local` (a stand-in).
    public var environment: String
    /// Apple's window: notifications sent from `windowStart` until `windowEnd`.
    public var windowStart: Timestamp
    public var windowEnd: Timestamp
    public var started: Timestamp
    public var updated: Timestamp
    public var finished: Timestamp?
    /// The page to ask for next; nil before the first and after the last.
    public var paginationToken: String?
    public var pages: Int
    /// Notifications in Apple's history for the window.
    public var seen: Int
    /// Those the log did not hold, recorded by this run.
    public var recovered: Int
    /// The stable code of the error it last stopped on (kept after a resumed run finishes
    /// only when it ended on it).
    public var failureCode: String?
    public var failure: String?

    /// Finished without an error: its window is covered.
    public var succeeded: Bool { finished != nil && failureCode == nil }

    /// `succeeded`, `running` (or cut off: resumed by the next run), `failed` (gave up on
    /// an error that a resume cannot get past), or `interrupted` (stopped on an error that
    /// the next look resumes from).
    public var state: String {
        if finished == nil { return failureCode == nil ? "running" : "interrupted" }
        return failureCode == nil ? "succeeded" : "failed"
    }

    enum CodingKeys: String, CodingKey {
        case id = "sync_id", bundleID = "bundle_id", environment, windowStart = "window_start", windowEnd = "window_end"
        case started, updated, finished, pages, seen, recovered, failureCode = "failure_code", failure, state
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.uuidString.lowercased(), forKey: .id)
        try c.encode(bundleID, forKey: .bundleID)
        try c.encode(environment, forKey: .environment)
        try c.encode(windowStart, forKey: .windowStart)
        try c.encode(windowEnd, forKey: .windowEnd)
        try c.encode(started, forKey: .started)
        try c.encode(updated, forKey: .updated)
        try c.encode(finished, forKey: .finished)
        try c.encode(pages, forKey: .pages)
        try c.encode(seen, forKey: .seen)
        try c.encode(recovered, forKey: .recovered)
        try c.encode(failureCode, forKey: .failureCode)
        try c.encode(failure, forKey: .failure)
        try c.encode(state, forKey: .state)
    }
}
