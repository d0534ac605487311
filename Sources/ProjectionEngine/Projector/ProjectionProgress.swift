import EventStore
import Foundation
import Observability
import Postgres
import Synchronization

/// Follows, on one connection of its own, how far each projection and the log have got,
/// and wakes the requests waiting for a position (read-your-writes, docs/api.md) without
/// any of them holding a thread.
///
/// The projector notifies `ledger_projections` (`<name>:<position>`) in the transaction
/// that moves a checkpoint, and the appender `ledger_events` (the new head) in the one
/// that appends; this LISTENs to both, and to the rate the projector says it folds at
/// (`ledger_fold_rate`, for admission). While anybody waits it also reads the checkpoints
/// once a second, so that a lost notification or a reconnection delays a waiter by a
/// second at most, never forever (and a projection that stopped on a poison event, which
/// notifies nothing, is seen within that second).
///
/// The API parks requests on it; commands block on it (`waitBlocking`). It is the one
/// waiter for projections: nothing polls a checkpoint in a loop.
public final class ProjectionProgress: Sendable {
    public typealias Wake = @Sendable () -> Void

    private struct Waiter: Sendable {
        var projection: String
        var position: Int64
        var wake: Wake
        /// Called instead of `wake` if the projection stops on a poison event first.
        var stopped: (@Sendable (ProjectionWait.Stopped) -> Void)?
    }

    private struct State: Sendable {
        var positions: [String: Int64] = [:]
        /// Projections stopped on a poison event, as the last refresh found them.
        var failures: [String: ProjectionWait.Stopped] = [:]
        var head: Int64?
        /// When each head was first seen, oldest first, trimmed to what some projection has
        /// not applied yet: the lag of a projection is the age of the first head past it.
        var heads: [(position: Int64, seen: ContinuousClock.Instant)] = []
        /// The rate the projector last said it folds at (`Projector.foldRateChannel`).
        var foldRate: Double?
        /// Called with each projection's advance (name, events applied).
        var observers: [@Sendable (String, Int64) -> Void] = []
        /// Others waiting on progress (parked writes), who want the once-a-second refresh.
        var othersWaiting = false
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        var connected = false
        var stopped = false
    }

    private let conninfo: String
    private let projections: [any Projection]
    private let logger: Logger
    private let state = Mutex(State())
    private let exited = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)

    public init(conninfo: String, projections: [any Projection], logger: Logger) {
        self.conninfo = conninfo
        self.projections = projections
        self.logger = logger
    }

    /// Starts the listening thread (once).
    public func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            run()
            exited.signal()
        }
        thread.name = "projection-progress"
        thread.start()
    }

    /// Stops the thread; waiters still waiting are left to their deadlines. Without
    /// `waitingForExit` it returns at once and the thread ends within a fifth of a second.
    public func stop(waitingForExit: Bool = true) {
        let wasRunning = state.withLock { s -> Bool in
            defer { s.stopped = true }
            return !s.stopped
        }
        if waitingForExit && wasRunning && started.load(ordering: .relaxed) { exited.wait() }
    }

    /// The last position seen for a projection (by its name), nil before the first read.
    public func position(_ projection: String) -> Int64? { state.withLock { $0.positions[projection] } }

    /// The rate the projector last said it folds at (events per second), nil before it has.
    public var foldRate: Double? { state.withLock { $0.foldRate } }

    /// The log's head as last seen, nil before the first read.
    public var head: Int64? { state.withLock { $0.head } }

    /// Whether the listening connection is up.
    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Calls `wake` once `projection` has applied `position`, at once if it already has.
    /// The returned closure forgets the waiter (when the request gives up).
    public func wait(for projection: String, position: Int64, _ wake: @escaping Wake) -> @Sendable () -> Void {
        let id = state.withLock { s -> UInt64? in
            if let reached = s.positions[projection], reached >= position { return nil }
            s.nextID += 1
            s.waiters[s.nextID] = Waiter(projection: projection, position: position, wake: wake)
            return s.nextID
        }
        guard let id else {
            wake()
            return {}
        }
        return { [self] in _ = state.withLock { $0.waiters.removeValue(forKey: id) } }
    }

    /// Blocks the calling thread (a command's; a server parks its requests with `wait`
    /// instead) until `projection` has applied `position`: true, or false after `timeout`
    /// seconds. Throws `ProjectionWait.Stopped` if the projection stops on a poison event.
    public func waitBlocking(for projection: String, position: Int64, timeout: Double) throws -> Bool {
        let signal = DispatchSemaphore(value: 0)
        let outcome = Mutex<ProjectionWait.Stopped?>(nil)
        let id = state.withLock { s -> UInt64? in
            if let reached = s.positions[projection], reached >= position { return nil }
            s.nextID += 1
            s.waiters[s.nextID] = Waiter(projection: projection, position: position, wake: { signal.signal() },
                                         stopped: { stop in outcome.withLock { $0 = stop }; signal.signal() })
            return s.nextID
        }
        guard let id else { return true }
        if signal.wait(timeout: .now() + max(0, timeout)) == .timedOut {
            let gone = state.withLock { $0.waiters.removeValue(forKey: id) }
            // Woken as the time ran out: the answer stands.
            if gone != nil { return false }
            signal.wait()
        }
        if let stop = outcome.withLock({ $0 }) { throw stop }
        return true
    }

    // MARK: - The listening thread

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func run() {
        while !stopped {
            do {
                let connection = try PostgresConnection(conninfo: conninfo)
                try connection.listen(Projector.notificationChannel)
                try connection.listen(EventStore.notificationChannel)
                try connection.listen(Projector.foldRateChannel)
                state.withLock { $0.connected = true }
                try refresh(connection)
                var lastRefresh = ContinuousClock.now
                while !stopped {
                    let notifications = try connection.waitForNotifications(timeout: 0.2)
                    if !notifications.isEmpty { absorb(notifications) }
                    let waiting = state.withLock { !$0.waiters.isEmpty || $0.othersWaiting }
                    if waiting && ContinuousClock.now - lastRefresh > .seconds(1) {
                        try refresh(connection)
                        lastRefresh = .now
                    }
                }
            } catch {
                state.withLock { $0.connected = false }
                logger.warning("projection progress: database unreachable; retrying", ["error": .string("\(error)")])
                let pause = DispatchSemaphore(value: 0)
                for _ in 0..<5 where !stopped { _ = pause.wait(timeout: .now() + 0.1) }
            }
        }
        state.withLock { $0.connected = false }
    }

    private func refresh(_ connection: PostgresConnection) throws {
        var positions: [String: Int64] = [:]
        var failures: [String: ProjectionWait.Stopped] = [:]
        for projection in projections {
            if let checkpoint = try ProjectionSchema.progress(projection.schema, on: connection) {
                positions[projection.name] = checkpoint.position
                if let failed = checkpoint.failedPosition {
                    failures[projection.name] = ProjectionWait.Stopped(projection: projection.name, position: failed,
                                                                       error: checkpoint.error ?? "")
                }
            }
        }
        let head = try LogReader(connection).headPosition()
        advance(positions, head: head, failures: failures)
    }

    private func absorb(_ notifications: [PostgresNotification]) {
        var positions: [String: Int64] = [:]
        var head: Int64?
        for n in notifications {
            if n.channel == EventStore.notificationChannel {
                if let value = Int64(n.payload) { head = max(head ?? 0, value) }
            } else if n.channel == Projector.foldRateChannel {
                if let rate = Double(n.payload), rate > 0, rate.isFinite { state.withLock { $0.foldRate = rate } }
            } else if let colon = n.payload.lastIndex(of: ":"), let value = Int64(n.payload[n.payload.index(after: colon)...]) {
                let name = String(n.payload[..<colon])
                positions[name] = max(positions[name] ?? 0, value)
            }
        }
        advance(positions, head: head)
    }

    /// Records progress (positions only move forward) and wakes whoever it satisfies; with
    /// `failures` (a refresh), tells the waiters that can be told that their projection stopped.
    private func advance(_ positions: [String: Int64], head: Int64?, failures: [String: ProjectionWait.Stopped]? = nil) {
        let now = ContinuousClock.now
        let (woken, advanced, observers) = state.withLock { s -> ([Wake], [(String, Int64)], [@Sendable (String, Int64) -> Void]) in
            var advanced: [(String, Int64)] = []
            if let head, head > (s.head ?? 0) {
                s.head = head
                s.heads.append((head, now))
            }
            for (name, value) in positions {
                if let before = s.positions[name], value > before {
                    advanced.append((name, value - before))
                }
                s.positions[name] = max(s.positions[name] ?? value, value)
            }
            Self.trim(&s)
            if let failures { s.failures = failures }
            var wake: [Wake] = []
            for (id, waiter) in s.waiters {
                if let reached = s.positions[waiter.projection], reached >= waiter.position {
                    wake.append(waiter.wake)
                    s.waiters[id] = nil
                } else if let stopped = waiter.stopped, let failure = s.failures[waiter.projection] {
                    wake.append { stopped(failure) }
                    s.waiters[id] = nil
                }
            }
            return (wake, advanced, s.observers)
        }
        for wake in woken { wake() }
        for (name, events) in advanced { for observer in observers { observer(name, events) } }
    }

    /// Drops the heads every projection has applied, and thins a long list (keeping the
    /// oldest, which the lag is measured from).
    private static func trim(_ s: inout State) {
        let applied = s.positions.values.min() ?? 0
        if let keep = s.heads.firstIndex(where: { $0.position > applied }) {
            if keep > 0 { s.heads.removeFirst(keep) }
        } else {
            s.heads.removeAll()
        }
        if s.heads.count > 4_096 { s.heads.remove(at: 1) }
    }

    // MARK: - Lag, for admission

    /// A head this process committed itself (`EventStore.observeCommits`): counted from
    /// now, without waiting for its notification to come back. Admission relies on it: an
    /// append that is over leaves admission's in-flight count, and its events must be in
    /// the backlog from that moment, or more would be let in than the bound allows.
    public func committed(head: Int64) {
        advance([:], head: head)
    }

    /// How far `projection` is behind the log now: the age of the oldest head it has not
    /// applied (zero when it has applied every head seen, or is unknown).
    public func lag(of projection: String) -> Duration {
        let now = ContinuousClock.now
        return state.withLock { s in
            guard let position = s.positions[projection],
                  let first = s.heads.first(where: { $0.position > position }) else { return .zero }
            return now - first.seen
        }
    }

    /// How `projection` stands now, for admission: its lag, the events it has not applied
    /// and the rate the projector said it folds at. One rate for every projection: the
    /// projector folds a batch into all of them in one transaction, and a write is visible
    /// in any of them when that transaction commits.
    public func load(of projection: String) -> ProjectionLoad {
        let lag = self.lag(of: projection)
        return state.withLock { s in
            let backlog = s.positions[projection].map { max(0, (s.head ?? $0) - $0) } ?? 0
            return ProjectionLoad(lag: lag, backlog: backlog, foldRate: s.foldRate)
        }
    }

    /// Calls `observer` with every advance of a projection (its name, the events applied).
    public func observe(_ observer: @escaping @Sendable (String, Int64) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Whether someone besides the position waiters waits on progress (parked writes): the
    /// listener then reads the checkpoints once a second, as it does for waiters.
    public func setOthersWaiting(_ waiting: Bool) {
        state.withLock { $0.othersWaiting = waiting }
    }
}
