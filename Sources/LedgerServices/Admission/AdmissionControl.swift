import Observability
import ProjectionEngine
import Synchronization

/// Admission bounded by the projections' lag: a write its client reads back (a usage
/// batch) is admitted when the projection it feeds would fold it within `Settings.bound`;
/// otherwise it is parked, in order, and released as the projection folds. A write parked
/// longer than `Settings.wait` is refused (the API answers 503 with `Retry-After`; its
/// idempotency key makes the retry safe).
///
/// "Would fold it within the bound" is a prediction from what the projection reports
/// (`ProjectionLoad`), made for the moment the write's append is answered, which is when
/// its client starts to wait: the events then ahead of it (those appended and not yet
/// applied, less what the projection folds before the write can land, plus those
/// admitted and still being appended) and its own, at the rate the projector says it
/// folds at (`FoldRate`), take no longer than the bound; and the projection's lag (the age
/// of the oldest event it has not applied) is within the bound too, which catches a
/// projection that stopped, whose last rate no longer holds. Bounding the
/// time-to-fold rather than the lag alone is what bounds the wait of an accepted write: at
/// a lag just under the bound a write joins a backlog that may take several bounds to fold
/// (docs/architecture.md, "Admission"). Nothing here holds a thread: a parked write is a
/// callback.
public final class AdmissionControl: Sendable {
    public struct Settings: Sendable, Equatable {
        /// The lag (the age of the oldest event the projection has not applied) past
        /// which writes are parked; nil: never (admission off).
        public var bound: Duration?
        /// How long a write stays parked before it is refused.
        public var wait: Duration

        public static let defaultBound: Duration = .milliseconds(50)
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
        /// Events admitted and not yet appended (or given up), per projection: ahead of
        /// the next write, though not yet in the log.
        var inFlight: [String: Int64] = [:]
        var nextTicket: UInt64 = 0
        var counts = Counts()
        /// How long the last admitted writes' appends took (up to `appendsKept`, oldest
        /// first): the quickest of them is how soon a write may land.
        var appendSeconds: [Double] = []
    }

    public let settings: Settings
    /// Appends whose length is kept, for how soon a write may land.
    static let appendsKept = 16
    /// How the projection stands now.
    private let load: @Sendable (String) -> ProjectionLoad
    private let state = Mutex(State())

    /// `load` answers how a projection stands now (`ProjectionProgress.load(of:)`).
    public init(settings: Settings, load: @escaping @Sendable (String) -> ProjectionLoad) {
        self.settings = settings
        self.load = load
    }

    /// Admits `events` for `projection` at once when nothing is parked for it and it would
    /// fold them within the bound; false means park the write (`park`). An admitted write
    /// is in flight until `appended` says its append is over.
    public func admitNow(events: Int, projection: String) -> Bool {
        let load = self.load(projection)
        return state.withLock { s in
            guard !s.parked.contains(where: { $0.projection == projection }),
                  fits(events, load, projection, s) else { return false }
            admit(events, projection, &s)
            return true
        }
    }

    /// Parks a write of `events` for `projection`: `wake` is called once it is admitted.
    /// Returns the ticket `cancel` takes. A write parked when nothing is ahead of it and
    /// it fits is admitted at once.
    public func park(events: Int, projection: String, wake: @escaping @Sendable () -> Void) -> UInt64 {
        let load = self.load(projection)
        let (ticket, admitted) = state.withLock { s -> (UInt64, Bool) in
            s.nextTicket += 1
            if !s.parked.contains(where: { $0.projection == projection }), fits(events, load, projection, s) {
                admit(events, projection, &s)
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
            s.counts.refused.add(s.parked.remove(at: i).events)
            return true
        }
    }

    /// An admitted write of `events` for `projection` is over (appended, or failed), its
    /// append having taken `took` since it was admitted: its events are now in the log's
    /// backlog, or nowhere. Releases what then fits.
    public func appended(events: Int, projection: String, took: Duration? = nil) {
        state.withLock { s in
            let left = (s.inFlight[projection] ?? 0) - Int64(events)
            s.inFlight[projection] = left > 0 ? left : nil
            if let took {
                if s.appendSeconds.count == Self.appendsKept { s.appendSeconds.removeFirst() }
                s.appendSeconds.append(max(0, took.seconds))
            }
        }
        release(projection)
    }

    /// A write admitted before whose act appends again (decided again after a race): in
    /// flight anew, without being admitted or counted a second time.
    public func appendingAgain(events: Int, projection: String) {
        state.withLock { $0.inFlight[projection, default: 0] += Int64(events) }
    }

    /// `projection` applied more: releases parked writes, oldest first, while they fit.
    public func folded(projection: String) {
        release(projection)
    }

    private func release(_ projection: String) {
        let load = self.load(projection)
        let woken = state.withLock { s -> [@Sendable () -> Void] in
            var woken: [@Sendable () -> Void] = []
            while let i = s.parked.firstIndex(where: { $0.projection == projection }),
                  fits(s.parked[i].events, load, projection, s) {
                let next = s.parked.remove(at: i)
                admit(next.events, projection, &s)
                woken.append(next.wake)
            }
            return woken
        }
        for wake in woken { wake() }
    }

    private func admit(_ events: Int, _ projection: String, _ s: inout State) {
        s.counts.admitted.add(events)
        s.inFlight[projection, default: 0] += Int64(events)
    }

    /// Whether a write of `events` would be folded within the bound of its append's answer:
    /// the lag is within the bound, and the events ahead of it when it lands (the backlog
    /// less what the projection folds before it can land, plus the writes in flight, which
    /// land with it) and its own, at the projection's recent rate, take no longer. It can
    /// land as soon as the quickest of the last appends did: what is folded by then is
    /// surely not ahead of it, while an average append would count as folded, for half
    /// the writes, events still ahead of them (measured: docs/benchmarks.md). With
    /// nothing ahead a write always fits (a batch larger than a bound's worth of folding
    /// goes in alone rather than never); with no rate known yet (a process just started),
    /// only then: one write at a time until the projection's folds give a rate. Letting
    /// the lag decide instead let every writer in at once at the start, and those were the
    /// slowest reads of a run (docs/benchmarks.md).
    private func fits(_ events: Int, _ load: ProjectionLoad, _ projection: String, _ s: State) -> Bool {
        guard let bound = settings.bound else { return true }
        guard load.lag <= bound else { return false }
        let rate = load.foldRate.flatMap { $0 > 0 ? $0 : nil }
        let foldedMeanwhile = Int64((rate ?? 0) * (s.appendSeconds.min() ?? 0))
        let ahead = max(0, load.backlog - foldedMeanwhile) + (s.inFlight[projection] ?? 0)
        guard ahead > 0 else { return true }
        guard let rate else { return false }
        return Double(ahead + Int64(events)) / rate <= bound.seconds
    }

    /// A write never bounded, counted apart (its events are not known before it is decided).
    public func countUnbounded(events: Int = 0) {
        state.withLock { $0.counts.unbounded.add(events) }
    }

    public var counts: Counts { state.withLock { $0.counts } }

    /// Events admitted for `projection` whose appends the log has not answered yet.
    public func inFlight(_ projection: String) -> Int64 {
        state.withLock { $0.inFlight[projection] ?? 0 }
    }

    /// Events admitted for every projection whose appends the log has not answered yet.
    public var inFlightEvents: Int64 {
        state.withLock { $0.inFlight.values.reduce(0, +) }
    }

    /// Writes parked now.
    public var parked: Int { state.withLock { $0.parked.count } }
}
