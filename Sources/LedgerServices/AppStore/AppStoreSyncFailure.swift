import Foundation

/// A sync that stopped on an error, after recording where: `final` when the next run asks
/// the window again rather than resuming this one. `syncID` is nil when no run began
/// (`sync_running`: another process runs the app's sync now).
public struct AppStoreSyncFailure: Error, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String
    public var syncID: UUID?
    public var final: Bool
    public var description: String { "\(code): \(message)" }
}
