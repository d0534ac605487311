import Foundation
import Synchronization

/// Failed logins, counted per operator name and per client address over a window: past
/// the limit, logins are refused until the window has passed, whatever the password.
/// In memory, per process: a restart forgets, which the limits allow for.
public final class ConsoleLockout: Sendable {
    public struct Limits: Sendable {
        public var perName: Int
        public var perAddress: Int
        public var window: Double
        public init(perName: Int = 5, perAddress: Int = 20, window: Double = 900) {
            self.perName = perName
            self.perAddress = perAddress
            self.window = window
        }
    }

    private let limits: Limits
    private let failures = Mutex<[String: [Double]]>([:])

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Whether a login for `name` from `address` may be tried now.
    public func allows(name: String, address: String, now: Double) -> Bool {
        failures.withLock { all in
            recent(&all, "name:" + name, now) < limits.perName && recent(&all, "address:" + address, now) < limits.perAddress
        }
    }

    public func recordFailure(name: String, address: String, now: Double) {
        failures.withLock { all in
            all["name:" + name, default: []].append(now)
            all["address:" + address, default: []].append(now)
            // Bounded memory: an address spraying names cannot grow the table without end.
            if all.count > 10_000 { all = all.filter { $0.value.contains { $0 > now - limits.window } } }
        }
    }

    /// A successful login clears the name's count (not the address's).
    public func recordSuccess(name: String) {
        failures.withLock { _ = $0.removeValue(forKey: "name:" + name) }
    }

    private func recent(_ all: inout [String: [Double]], _ key: String, _ now: Double) -> Int {
        let kept = (all[key] ?? []).filter { $0 > now - limits.window }
        all[key] = kept.isEmpty ? nil : kept
        return kept.count
    }
}
