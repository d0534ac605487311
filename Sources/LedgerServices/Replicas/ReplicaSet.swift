import Foundation
import Observability
import Postgres
import ProjectionEngine
import Synchronization

/// The hot standbys reads may go to (`LEDGER_READ_DATABASE_URLS`), and how far each has
/// got: each is polled on a thread of its own (a standby cannot LISTEN: notifications are
/// not replicated) for its copy of the log's head, each projection's checkpoint, and its
/// replay lag. A replica is **in rotation** while its last poll succeeded less than
/// `downAfter` seconds ago and it lags the primary by at most `maxLagEvents` positions and
/// `maxLagSeconds` seconds; it leaves rotation by itself and comes back by itself.
///
/// Appends, the projector and every decision (what a command or an ingestion checks) stay
/// on the primary; only the read endpoints come here (`ServiceContext.reading`).
public final class ReplicaSet: Sendable {
    public struct Settings: Sendable {
        public var maxLagEvents: Int64
        public var maxLagSeconds: Double
        public var pollInterval: Double
        public var downAfter: Double

        public init(maxLagEvents: Int64 = 10_000, maxLagSeconds: Double = 5, pollInterval: Double = 0.1, downAfter: Double = 2) {
            self.maxLagEvents = maxLagEvents
            self.maxLagSeconds = maxLagSeconds
            self.pollInterval = pollInterval
            self.downAfter = downAfter
        }
    }

    /// One replica.
    public struct Replica: Sendable {
        /// `replica-1`, … in the order of `LEDGER_READ_DATABASE_URLS`.
        public let name: String
        /// Its address without credentials, for `/readyz`.
        public let address: String
        public let connections: PostgresPool
    }

    public let replicas: [Replica]
    let settings: Settings
    private let projections: [any Projection]
    /// The primary's head as the service last saw it.
    private let primaryHead: @Sendable () -> Int64?
    private let states: Mutex<[ReplicaStatus]>
    private let turn = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let exited: [DispatchSemaphore]
    private let logger: Logger

    /// - Parameter urls: the replicas' connection URLs, as the service's role connects.
    public init(urls: [String], poolSize: Int, projections: [any Projection], settings: Settings = Settings(),
                logger: Logger, primaryHead: @escaping @Sendable () -> Int64?) {
        replicas = urls.enumerated().map { i, url in
            Replica(name: "replica-\(i + 1)", address: Self.address(of: url),
                    connections: PostgresPool(conninfo: Self.bounded(url), maximumConnections: poolSize, acquireTimeout: 2))
        }
        self.settings = settings
        self.projections = projections
        self.primaryHead = primaryHead
        self.logger = logger
        states = Mutex(replicas.map { ReplicaStatus(name: $0.name, address: $0.address) })
        exited = replicas.map { _ in DispatchSemaphore(value: 0) }
    }

    /// Starts one polling thread per replica.
    public func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        for (i, replica) in replicas.enumerated() {
            let thread = Thread { [self] in
                poll(i)
                exited[i].signal()
            }
            thread.name = "replica-poll-\(replica.name)"
            thread.start()
        }
    }

    public func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        if started.load(ordering: .relaxed) { for signal in exited { signal.wait() } }
        for replica in replicas { replica.connections.closeIdle() }
    }

    /// Every replica as its last poll found it, with whether it is in rotation now.
    public var statuses: [ReplicaStatus] {
        let now = Date()
        return states.withLock { $0 }.map { $0.resolved(now: now, settings: settings) }
    }

    /// A replica in rotation whose copy of `projection` has applied `position`, taking
    /// turns among those that qualify; nil when none does (the read goes to the primary).
    public func pick(projection: String, atLeast position: Int64) -> Replica? {
        pick(projections: [projection], atLeast: position)
    }

    /// A replica in rotation whose copies of all `projections` have applied `position`,
    /// taking turns among those that qualify; nil when none does.
    public func pick(projections: [String], atLeast position: Int64) -> Replica? {
        let now = Date()
        let ready = states.withLock { all in
            all.indices.filter { i in
                projections.allSatisfy { all[i].qualifies(projection: $0, atLeast: position, now: now, settings: settings) }
            }
        }
        guard !ready.isEmpty else { return nil }
        let n = turn.add(1, ordering: .relaxed).newValue
        return replicas[ready[n % ready.count]]
    }

    /// The replica in rotation whose copy of `projection` is furthest on, with its position.
    public func freshest(projection: String) -> (replica: Replica, position: Int64)? {
        let now = Date()
        let best = states.withLock { all -> (Int, Int64)? in
            all.indices.compactMap { i -> (Int, Int64)? in
                guard all[i].qualifies(projection: projection, atLeast: 0, now: now, settings: settings),
                      let position = all[i].projections[projection] else { return nil }
                return (i, position)
            }.max { $0.1 < $1.1 }
        }
        return best.map { (replicas[$0.0], $0.1) }
    }

    /// Takes a replica out of rotation at once, after a read on it failed; its next
    /// successful poll brings it back.
    public func markDown(_ name: String, because error: any Error) {
        states.withLock { all in
            guard let i = all.firstIndex(where: { $0.name == name }) else { return }
            all[i].lastSuccess = nil
            all[i].detail = "a read failed: \(error)"
        }
    }

    private func poll(_ index: Int) {
        let replica = replicas[index]
        while !stopping.load(ordering: .relaxed) {
            let started = Date()
            do {
                let found = try replica.connections.read { try ReplicaStatus.Observed.read(on: $0, projections: projections) }
                let head = primaryHead()
                states.withLock { all in
                    let wasDown = all[index].lastSuccess == nil
                    all[index].update(found, primaryHead: head, at: Date())
                    if wasDown { logger.info("read replica reachable", ["replica": .string(replica.name)]) }
                }
            } catch {
                let wasUp = states.withLock { all -> Bool in
                    defer { all[index].detail = "\(error)" }
                    return all[index].lastSuccess.map { Date().timeIntervalSince($0) < settings.downAfter } ?? false
                }
                if wasUp { logger.warning("read replica unreachable", ["replica": .string(replica.name), "error": .string("\(error)")]) }
                replica.connections.closeIdle()
            }
            let rest = settings.pollInterval - Date().timeIntervalSince(started)
            if rest > 0 { Thread.sleep(forTimeInterval: rest) }
        }
    }

    /// The URL with bounds on how long a replica that stopped answering can hold a read
    /// (unless the URL sets its own): 2 s to connect, 5 s for unacknowledged data on the
    /// socket. The poll notices such a replica within `downAfter` and stops sending reads.
    static func bounded(_ url: String) -> String {
        guard var c = URLComponents(string: url) else { return url }
        var items = c.queryItems ?? []
        for (name, value) in [("connect_timeout", "2"), ("tcp_user_timeout", "5000")] where !items.contains(where: { $0.name == name }) {
            items.append(URLQueryItem(name: name, value: value))
        }
        c.queryItems = items
        return c.string ?? url
    }

    /// `host:port/database`, never the user or the password.
    static func address(of url: String) -> String {
        guard let c = URLComponents(string: url), let host = c.host else { return "(unparsable URL)" }
        return "\(host):\(c.port ?? 5432)\(c.path)"
    }
}
