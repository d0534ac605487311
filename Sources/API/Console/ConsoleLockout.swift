import Foundation
import LedgerDomain
import Synchronization

/// The console's sign-in limits (docs/security.md, "Signing in"), built so that neither a
/// race nor a stranger can turn them against an operator:
///
/// - **Counted before the password is checked.** `admit` reserves the attempt under the
///   lock, before the (deliberately slow) scrypt runs, so concurrent wrong passwords cannot
///   overtake the count; a success gives its reservation back.
/// - **Per name and address pair, with backoff.** A pair's first `freePerPair` failures in
///   the window cost nothing; each one after doubles the wait before the pair may try again
///   (1 s, 2 s, 4 s … up to `maximumDelay`). A stranger guessing an operator's password
///   from their address slows themselves down; the operator, from an address that has not
///   failed, signs in at once with the right password.
/// - **Per address**, across names, `perAddress` failures in the window stop that address:
///   spraying names from one address. The address is the client's own: behind a proxy,
///   the one `LEDGER_TRUSTED_PROXIES` lets the server read from `X-Forwarded-For`, never
///   the proxy's, which would lock everyone out at once.
/// - **Bounded.** A name that is not an operator's name by `OperatorDecider.isValidName` is
///   counted as "invalid", never kept as sent; the table holds at most `capacity` keys.
///
/// In memory, per API process: a restart forgets, which the limits allow for, and several
/// API processes each count their own (an attacker gains a factor of their number).
public final class ConsoleLockout: Sendable {
    public struct Limits: Sendable {
        public var freePerPair: Int
        public var perAddress: Int
        public var window: Double
        public var maximumDelay: Double
        public init(freePerPair: Int = 5, perAddress: Int = 20, window: Double = 900, maximumDelay: Double = 900) {
            self.freePerPair = freePerPair
            self.perAddress = perAddress
            self.window = window
            self.maximumDelay = maximumDelay
        }
    }

    /// A sign-in that may go ahead, holding its place in the counts until it ends.
    public struct Attempt: Sendable {
        fileprivate var pair: String
        fileprivate var address: String
        fileprivate var at: Double
    }

    public enum Admission: Sendable {
        case allowed(Attempt)
        /// Refused without checking the password: try again after this many seconds.
        case refused(retryAfter: Int)
    }

    private let limits: Limits
    private let failures = Mutex<[String: [Double]]>([:])
    static let capacity = 100_000

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// The name as the counts key it: itself when it could be an operator's, else "invalid".
    public static func countedName(_ name: String) -> String { OperatorDecider.isValidName(name) ? name : "(invalid)" }

    /// Reserves an attempt for `name` from `address` at `now`, or says how long to wait.
    public func admit(name: String, address: String, now: Double) -> Admission {
        let pair = "pair:" + Self.countedName(name) + "\n" + address.prefix(64)
        let addressKey = "address:" + address.prefix(64)
        return failures.withLock { all in
            let byAddress = recent(&all, addressKey, now)
            if byAddress.count >= limits.perAddress, let oldest = byAddress.first {
                return .refused(retryAfter: max(1, Int((oldest + limits.window - now).rounded(.up))))
            }
            let byPair = recent(&all, pair, now)
            if byPair.count >= limits.freePerPair, let last = byPair.last {
                let excess = byPair.count - limits.freePerPair
                let delay = min(limits.maximumDelay, pow(2, Double(min(excess, 30))))
                if now < last + delay { return .refused(retryAfter: max(1, Int((last + delay - now).rounded(.up)))) }
            }
            // Counted now, as if it failed: a success takes it back.
            if all.count >= Self.capacity { all = all.filter { $0.value.contains { $0 > now - limits.window } } }
            guard all.count < Self.capacity || all[pair] != nil else { return .refused(retryAfter: Int(limits.window)) }
            all[pair, default: []].append(now)
            all[addressKey, default: []].append(now)
            return .allowed(Attempt(pair: pair, address: addressKey, at: now))
        }
    }

    /// The attempt's password was right: its reservation is given back, and the pair's
    /// earlier failures forgotten (the address's are not).
    public func succeeded(_ attempt: Attempt) {
        failures.withLock { all in
            all[attempt.pair] = nil
            if var times = all[attempt.address], let index = times.lastIndex(of: attempt.at) {
                times.remove(at: index)
                all[attempt.address] = times.isEmpty ? nil : times
            }
        }
    }

    /// Failures of `name` from `address` still counted (for tests and the log line).
    public func failureCount(name: String, address: String, now: Double) -> Int {
        failures.withLock { recent(&$0, "pair:" + Self.countedName(name) + "\n" + address.prefix(64), now).count }
    }

    /// The key's times within the window, oldest first; older ones are dropped.
    private func recent(_ all: inout [String: [Double]], _ key: String, _ now: Double) -> [Double] {
        let kept = (all[key] ?? []).filter { $0 > now - limits.window }
        all[key] = kept.isEmpty ? nil : kept
        return kept
    }
}
