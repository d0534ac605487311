import Foundation
import HTTP
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
/// - **Per network.** Both counts key the address by its network (`ClientNetwork`): an
///   IPv6 address by its /64, an IPv4-mapped one as the IPv4 address, an IPv4 address as
///   itself. One host with a /64 is one address here, not 2⁶⁴ fresh ones.
/// - **Bounded, and never full.** A name that is not an operator's name by
///   `OperatorDecider.isValidName` is counted as "invalid", never kept as sent; the table
///   holds at most `capacity` keys, and a new key past it pushes out the oldest one
///   (`InsertionOrderedTable`, O(1), no scan under the lock). Filling the table pushes out
///   the oldest counts, whoever's they are, and refuses nobody: a table that refused
///   newcomers once full would let anyone with enough addresses lock every operator out.
///   Pushing one's own count out takes `capacity` attempts from other networks, and whoever
///   has that many networks has fresh counts to use already: eviction gives them nothing.
///
/// In memory, per API process: a restart forgets, which the limits allow for, and several
/// API processes each count their own (an attacker gains a factor of their number).
public final class ConsoleLockout: Sendable {
    /// How many failures cost what, within `window` seconds.
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

    /// What `admit` decided.
    public enum Admission: Sendable {
        case allowed(Attempt)
        /// Refused without checking the password: try again after this many seconds.
        case refused(retryAfter: Int)
    }

    private let limits: Limits
    private let failures: Mutex<InsertionOrderedTable<[Double]>>
    /// The most keys (pairs and networks) the counts hold.
    public let capacity: Int

    /// Limits `limits`, and at most `capacity` keys kept (2 at least: one attempt may add
    /// a pair and a network).
    public init(limits: Limits = Limits(), capacity: Int = 100_000) {
        precondition(capacity >= 2, "a capacity of \(capacity)")
        self.limits = limits
        self.capacity = capacity
        failures = Mutex(InsertionOrderedTable(capacity: capacity))
    }

    /// The name as the counts key it: itself when it could be an operator's, else "invalid".
    public static func countedName(_ name: String) -> String { OperatorDecider.isValidName(name) ? name : "(invalid)" }

    private static func pairKey(_ name: String, _ network: String) -> String { "pair:" + countedName(name) + "\n" + network }

    /// Reserves an attempt for `name` from `address` at `now`, or says how long to wait.
    public func admit(name: String, address: String, now: Double) -> Admission {
        let network = ClientNetwork.key(of: address)
        let pair = Self.pairKey(name, network), addressKey = "address:" + network
        return failures.withLock { table in
            let byAddress = recent(&table, addressKey, now)
            if byAddress.count >= limits.perAddress, let oldest = byAddress.first {
                return .refused(retryAfter: max(1, Int((oldest + limits.window - now).rounded(.up))))
            }
            let byPair = recent(&table, pair, now)
            if byPair.count >= limits.freePerPair, let last = byPair.last {
                let excess = byPair.count - limits.freePerPair
                let delay = min(limits.maximumDelay, pow(2, Double(min(excess, 30))))
                if now < last + delay { return .refused(retryAfter: max(1, Int((last + delay - now).rounded(.up)))) }
            }
            // Counted now, as if it failed: a success takes it back. Either key may push
            // out the oldest key, even the other one; both are written whole from what
            // was read above, so this attempt's counts are never the ones lost.
            table.set(pair, byPair + [now])
            table.set(addressKey, byAddress + [now])
            return .allowed(Attempt(pair: pair, address: addressKey, at: now))
        }
    }

    /// The attempt's password was right: its reservation is given back, and the pair's
    /// earlier failures forgotten (the address's are not).
    public func succeeded(_ attempt: Attempt) {
        failures.withLock { table in
            table.remove(attempt.pair)
            if var times = table[attempt.address], let index = times.lastIndex(of: attempt.at) {
                times.remove(at: index)
                if times.isEmpty { table.remove(attempt.address) } else { table.set(attempt.address, times) }
            }
        }
    }

    /// Failures of `name` from `address` still counted (for tests and the log line).
    public func failureCount(name: String, address: String, now: Double) -> Int {
        failures.withLock { recent(&$0, Self.pairKey(name, ClientNetwork.key(of: address)), now).count }
    }

    /// Failures from `address`'s network still counted, whatever the names.
    public func addressFailureCount(address: String, now: Double) -> Int {
        failures.withLock { recent(&$0, "address:" + ClientNetwork.key(of: address), now).count }
    }

    /// Keys held now (pairs and networks); never more than `capacity`.
    public var count: Int { failures.withLock { $0.count } }

    /// The key's times within the window, oldest first; older ones are dropped, and the
    /// key with them when none is left. Each key holds a handful of times (the limits
    /// refuse before more are added), so this is the only clean-up there is.
    private func recent(_ table: inout InsertionOrderedTable<[Double]>, _ key: String, _ now: Double) -> [Double] {
        guard let times = table[key] else { return [] }
        let kept = times.filter { $0 > now - limits.window }
        if kept.isEmpty { table.remove(key) } else if kept.count != times.count { table.set(key, kept) }
        return kept
    }
}
