import Observability
import Synchronization

/// Admission bounded by the projections' lag: a write its client reads back (a usage
/// batch) is admitted while the projection it feeds is less than `Settings.bound` behind
/// the log; past it, writes are parked, in order, and released as the projection folds,
/// events for events, so that the backlog stops growing while every event the projector
/// can fold is still admitted. A write parked longer than `Settings.wait` is refused (the
/// API answers 503 with `Retry-After`; its idempotency key makes the retry safe).
///
/// Why "events for events": once behind, admitting whenever the lag dips under the bound
/// would let every parked request through at the first fold and overshoot; admitting as
/// many events as each fold applied, scaled by bound/lag while past the bound, brings the
/// backlog back to the bound and keeps the admitted rate at the projector's
/// (docs/architecture.md, "Admission"). Nothing here holds a thread: a parked write is a
/// callback.
public final class AdmissionControl: Sendable {
    public struct Settings: Sendable, Equatable {
        /// The lag (the age of the oldest event the projection has not applied) past
        /// which writes are parked; nil: never (admission off).
        public var bound: Duration?
        /// How long a write stays parked before it is refused.
        public var wait: Duration

        public static let defaultBound: Duration = .milliseconds(100)
        public static let defaultWait: Duration = .seconds(2)

        public init(bound: Duration? = defaultBound, wait: Duration = defaultWait) {
            self.bound = bound
            self.wait = wait
        }
    }

    /// What happened to the writes, by requests and by events.
    public struct Counts: Sendable, Equatable {
        /// Bounded writes admitted at once or after parking.
        public var admitted = Tally()
        /// Bounded writes that were parked (some of them later admitted, some refused).
        public var deferred = Tally()
        /// Bounded writes refused after `wait`.
        public var refused = Tally()
        /// Writes never bounded (`ActAdmission.always`): notifications, operators' acts.
        public var unbounded = Tally()

        public struct Tally: Sendable, Equatable {
            public var requests: Int64 = 0
            public var events: Int64 = 0
            mutating func add(_ events: Int) { requests += 1; self.events += Int64(events) }
        }
    }

    /// One parked write.
    private struct Parked: Sendable {
        var ticket: UInt64
        var projection: String
        var events: Int
        var wake: @Sendable () -> Void
    }

    private struct State: Sendable {
        var parked: [Parked] = []
        /// Events folded since the oldest parked write was parked, not yet spent on one.
        var credit: [String: Int64] = [:]
        var nextTicket: UInt64 = 0
        var counts = Counts()
    }

    public let settings: Settings
    /// The lag of a projection now.
    private let lag: @Sendable (String) -> Duration
    private let state = Mutex(State())

    /// `lag` answers how far behind a projection is now (`ProjectionProgress.lag(of:)`).
    public init(settings: Settings, lag: @escaping @Sendable (String) -> Duration) {
        self.settings = settings
        self.lag = lag
    }

    /// Admits `events` for `projection` at once when nothing is parked and the projection is
    /// within the bound; false means park the write (`park`).
    public func admitNow(events: Int, projection: String) -> Bool {
        let within = isWithinBound(projection)
        return state.withLock { s in
            guard within, !s.parked.contains(where: { $0.projection == projection }) else { return false }
            s.counts.admitted.add(events)
            return true
        }
    }

    /// Parks a write of `events` for `projection`: `wake` is called once it is admitted.
    /// Returns the ticket `cancel` takes. A write parked while the projection is already
    /// back within the bound and nothing is ahead of it is admitted at once.
    public func park(events: Int, projection: String, wake: @escaping @Sendable () -> Void) -> UInt64 {
        let within = isWithinBound(projection)
        let (ticket, admitted) = state.withLock { s -> (UInt64, Bool) in
            s.nextTicket += 1
            if within && !s.parked.contains(where: { $0.projection == projection }) {
                s.counts.admitted.add(events)
                return (s.nextTicket, true)
            }
            s.counts.deferred.add(events)
            s.parked.append(Parked(ticket: s.nextTicket, projection: projection, events: events, wake: wake))
            return (s.nextTicket, false)
        }
        if admitted { wake() }
        return ticket
    }

    /// The parked write `ticket` gave up (its wait ran out): refused, unless it was
    /// admitted meanwhile. True when it was still parked.
    @discardableResult
    public func cancel(_ ticket: UInt64) -> Bool {
        state.withLock { s in
            guard let i = s.parked.firstIndex(where: { $0.ticket == ticket }) else { return false }
            let gone = s.parked.remove(at: i)
            s.counts.refused.add(gone.events)
            if !s.parked.contains(where: { $0.projection == gone.projection }) { s.credit[gone.projection] = nil }
            return true
        }
    }

    /// `projection` applied `events` more: releases parked writes, oldest first, while the
    /// events folded cover them or the projection is back within the bound.
    public func folded(_ events: Int64, projection: String) {
        guard events > 0 else { return }
        let share = self.share(projection)
        let within = share >= 1
        let woken = state.withLock { s -> [@Sendable () -> Void] in
            guard s.parked.contains(where: { $0.projection == projection }) else { return [] }
            var credit = (s.credit[projection] ?? 0) + (within ? events : Int64(Double(events) * share))
            var woken: [@Sendable () -> Void] = []
            while let i = s.parked.firstIndex(where: { $0.projection == projection }) {
                let next = s.parked[i]
                guard within || credit >= Int64(next.events) else { break }
                credit = max(0, credit - Int64(next.events))
                s.parked.remove(at: i)
                s.counts.admitted.add(next.events)
                woken.append(next.wake)
            }
            s.credit[projection] = s.parked.contains(where: { $0.projection == projection }) ? credit : nil
            return woken
        }
        for wake in woken { wake() }
    }

    /// The share of a fold's events that parked writes may take: all of them within the
    /// bound; past it, bound/lag, so that the backlog shrinks back towards the bound (at a
    /// lag of twice the bound, half of what was folded is let in) while the admitted rate
    /// stays with the projector's.
    func share(_ projection: String) -> Double {
        guard let bound = settings.bound else { return 1 }
        let behind = lag(projection)
        guard behind > bound else { return 1 }
        return bound.seconds / behind.seconds
    }

    /// Whether `projection` lags the log by no more than the bound (always, with no bound).
    public func isWithinBound(_ projection: String) -> Bool {
        guard let bound = settings.bound else { return true }
        return lag(projection) <= bound
    }

    /// A write never bounded, counted apart (its events are not known before it is decided).
    public func countUnbounded(events: Int = 0) {
        state.withLock { $0.counts.unbounded.add(events) }
    }

    public var counts: Counts { state.withLock { $0.counts } }

    /// Writes parked now.
    public var parked: Int { state.withLock { $0.parked.count } }
}
