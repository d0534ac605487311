import Foundation

/// A sync that stopped on an error, after recording where: `final` when the next run asks
/// the window again rather than resuming this one.
public struct AppStoreSyncFailure: Error, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String
    public var syncID: UUID
    public var final: Bool
    public var description: String { "\(code): \(message)" }
}
