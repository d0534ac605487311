import Dispatch
import Foundation

/// Waiting in tests: every wait polls a condition until it holds or a deadline passes, so
/// a test is as fast as the system allows and never relies on a guess of how long
/// something takes.
public enum Poll {
    /// Checks `condition` every `interval` until it holds (true) or `timeout` seconds pass
    /// (false, after one last check).
    @discardableResult
    public static func until(timeout: Double = 30, interval: Double = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        let pause = DispatchSemaphore(value: 0)
        while Date() < deadline {
            if try condition() { return true }
            _ = pause.wait(timeout: .now() + interval)
        }
        return try condition()
    }

    /// The first non-nil value `produce` returns within `timeout` seconds.
    public static func value<T>(timeout: Double = 30, interval: Double = 0.01, _ produce: () throws -> T?) rethrows -> T? {
        var found: T?
        try until(timeout: timeout, interval: interval) {
            found = try produce()
            return found != nil
        }
        return found
    }
}
