import Dispatch
import EventStore
import Foundation
import LedgerDomain
import Outbound
import Postgres
import ProjectionEngine
import Projections
import Synchronization
import WebhookSigning

/// Sends each subscription's messages, in order, at least once (derived from the
/// log: docs/webhooks.md). It runs in the process of the active projector: `isActive` says whether this
/// process holds the projector's lock, so one database has one sender.
///
/// Each loop asks the webhooks projection for every subscription's next due message; a
/// subscription with an attempt in flight, or whose last attempt the projection has not
/// folded yet, is left for later, so a message is never sent twice at once and the next
/// one never overtakes it. An attempt is appended to the log after its answer; a crash
/// in between sends the message again, with the same id, which is what at-least-once
/// allows and what the receiver deduplicates on.
public final class WebhookSender: Sendable {
    public struct Configuration: Sendable {
        public var secrets: WebhookSecrets
        public var policy: OutboundPolicy
        /// Seconds between looks at what is due, when nothing wakes the dispatcher earlier.
        public var interval: Double
        /// Seconds an attempt may take.
        public var timeout: Double
        public var now: LedgerClock
        /// 0 ..< 1, spreading retries (the recorded next attempt time carries it).
        public var jitter: @Sendable () -> Double
        /// A payer's or a project's available balance now (the balance read's `available`),
        /// nil when it has none of its own; nil: `balance.low` is not watched.
        public var available: (@Sendable (WebhookSubject) throws -> Millicredits?)?
        /// Seconds between looks at the balances of subscriptions with a `balance.low` threshold.
        public var watchInterval: Double

        public init(secrets: WebhookSecrets, policy: OutboundPolicy, interval: Double = 1, timeout: Double = 10,
                    now: @escaping LedgerClock,
                    jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                    available: (@Sendable (WebhookSubject) throws -> Millicredits?)? = nil, watchInterval: Double = 10) {
            self.secrets = secrets
            self.policy = policy
            self.interval = interval
            self.timeout = timeout
            self.now = now
            self.jitter = jitter
            self.available = available
            self.watchInterval = watchInterval
        }
    }

    private struct Answered: Sendable {
        var due: WebhooksReadModel.Due
        var madeAt: Timestamp
        var result: Result<OutboundResponse, OutboundError>
    }

    private struct State: Sendable {
        var stopped = false
        /// Subscriptions with an attempt on the wire.
        var inFlight: Set<String> = []
        /// Subscriptions whose last attempt is at this position, not yet folded.
        var awaiting: [String: Int64] = [:]
        var answered: [Answered] = []
    }

    private let configuration: Configuration
    private let store: EventStore
    private let connections: PostgresPool
    private let isActive: @Sendable () -> Bool
    private let log: ProjectorLog
    private let client: OutboundClient
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    public init(configuration: Configuration, store: EventStore, connections: PostgresPool, isActive: @escaping @Sendable () -> Bool,
                log: @escaping ProjectorLog) {
        self.configuration = configuration
        self.store = store
        self.connections = connections
        self.isActive = isActive
        self.log = log
        client = OutboundClient(policy: configuration.policy)
        let thread = Thread { [self] in run() }
        thread.name = "ledger-webhooks"
        thread.start()
    }

    /// Lets the attempts in flight finish and be recorded, then stops.
    public func stop() {
        let first = state.withLock { s -> Bool in
            defer { s.stopped = true }
            return !s.stopped
        }
        guard first else { return }
        wake.signal()
        finished.wait()
        client.close()
    }

    /// Looks for due messages now (the projector folded something).
    public func poke() { wake.signal() }

    private func run() {
        var stoppedAt: DispatchTime?
        var watched = DispatchTime(uptimeNanoseconds: 0)
        while true {
            record()
            let (stopped, busy) = state.withLock { ($0.stopped, !$0.inFlight.isEmpty) }
            if stopped {
                let since = stoppedAt ?? .now()
                stoppedAt = since
                // Attempts that cannot be recorded before the deadline are sent again by
                // the next dispatcher: at least once, still.
                if !busy || DispatchTime.now() > since + configuration.timeout + 5 {
                    finished.signal()
                    return
                }
            }
            if !stopped && isActive(), let folded = dispatch(),
               DispatchTime.now().uptimeNanoseconds >= watched.uptimeNanoseconds + UInt64(configuration.watchInterval * 1e9) {
                watched = .now()
                watchBalances(folded: folded)
            }
            _ = wake.wait(timeout: .now() + configuration.interval)
        }
    }

    /// Sends every subscription's next due message that is free to go; returns the position
    /// the webhooks projection has folded, nil when it could not be read.
    @discardableResult
    private func dispatch() -> Int64? {
        let now = configuration.now()
        let due: [WebhooksReadModel.Due]
        let folded: Int64
        let ready: Int64
        do {
            (due, folded) = try WebhooksReadModel(connections: connections).due(now: now.microseconds, limit: 200)
            ready = due.isEmpty ? 0 : try WebhookMessageState(connections: connections).readyThrough()
        } catch {
            log(.warning, "webhooks: cannot read what is due", ["error": "\(error)"])
            return nil
        }
        // A message's state is read from the projections that own it: not before they
        // have folded its event.
        for d in due where d.position <= ready {
            let free = state.withLock { s -> Bool in
                guard !s.inFlight.contains(d.webhookID) else { return false }
                if let at = s.awaiting[d.webhookID], at > folded { return false }
                s.awaiting[d.webhookID] = nil
                s.inFlight.insert(d.webhookID)
                return true
            }
            guard free else { continue }
            do {
                try send(d, now: now)
            } catch {
                state.withLock { _ = $0.inFlight.remove(d.webhookID) }
                log(.warning, "webhooks: cannot build a message", ["webhook": d.webhookID, "sequence": String(d.sequence), "error": "\(error)"])
            }
        }
        return folded
    }

    /// Records each subject of a subscription with a `balance.low` threshold that crossed
    /// it since it was last recorded, once the projection has folded the last crossing.
    private func watchBalances(folded: Int64) {
        guard let available = configuration.available else { return }
        do {
            let model = WebhooksReadModel(connections: connections)
            for s in try model.subscriptions() where s.active {
                guard let text = s.balanceLowThreshold, let threshold = Millicredits(canonical: text) else { continue }
                let key = "watch:" + s.id
                if let at = state.withLock({ $0.awaiting[key] }), at > folded { continue }
                let sides = try model.balanceWatch(webhook: s.id)
                for subject in s.subjects.compactMap(WebhookSubject.init) where subject.kind == .payer || subject.kind == .project {
                    guard let now = try available(subject),
                          let decision = WebhookDeliveryDecider.watch(webhook: s.id, subject: subject, threshold: threshold,
                                                                      available: now, last: sides[subject.description]) else { continue }
                    let metadata = EventMetadata(actor: Actor(.system, "webhooks"))
                    let result = try store.append(AppendRequest(events: decision.events.map { EventToAppend($0, metadata: metadata) }))
                    state.withLock { $0.awaiting[key] = result.position }
                }
            }
        } catch {
            log(.warning, "webhooks: cannot watch balances", ["error": "\(error)"])
        }
    }

    private func send(_ d: WebhooksReadModel.Due, now: Timestamp) throws {
        guard let event = try store.log.event(at: d.position) else {
            throw PostgresError(code: .unexpectedResult, message: "the log has no event at \(d.position)")
        }
        let body = try WebhookMessageBody.render(id: d.messageID, type: d.type, subject: d.subject, sequence: d.sequence, event: event,
                                                 state: WebhookMessageState(connections: connections).state(type: d.type, subject: d.subject, event: event))
        let secrets = configuration.secrets.signing(webhook: d.webhookID, generation: d.generation,
                                                    previousValidUntil: d.previousValidUntil, now: now.microseconds)
        let signature = WebhookSignature.value(timestamp: now.microseconds / 1_000_000, body: body, secrets: secrets)
        let request = OutboundRequest(url: d.url, headers: [
            ("Content-Type", "application/json"), (WebhookSignature.header, signature), ("Ledger-Message-Id", d.messageID),
            ("Ledger-Sequence", String(d.sequence)), ("Ledger-Event-Type", d.type), ("User-Agent", "ledger-webhooks/1"),
        ], body: body, timeout: configuration.timeout)
        let madeAt = event.recordedAt
        client.submit(request) { [self] result in
            // On libcurl's thread: hand over, never block it.
            state.withLock { $0.answered.append(Answered(due: d, madeAt: madeAt, result: result)) }
            wake.signal()
        }
    }

    /// Appends the attempts answered since the last loop. One that cannot be appended (the
    /// database is down) stays, with its subscription held, until it can.
    private func record() {
        let answered = state.withLock { s -> [Answered] in defer { s.answered.removeAll() }; return s.answered }
        var kept: [Answered] = []
        for a in answered {
            do {
                let position = try append(a)
                state.withLock { s in
                    s.inFlight.remove(a.due.webhookID)
                    s.awaiting[a.due.webhookID] = position
                }
            } catch {
                log(.warning, "webhooks: cannot record an attempt; will retry", ["webhook": a.due.webhookID, "error": "\(error)"])
                kept.append(a)
            }
        }
        if !kept.isEmpty { state.withLock { $0.answered.insert(contentsOf: kept, at: 0) } }
    }

    private func append(_ a: Answered) throws -> Int64 {
        let now = configuration.now()
        var status: Int64?, error: String?, digest: String?, bytes: Int64?, latency: Int64 = 0
        switch a.result {
        case .success(let response):
            status = Int64(response.status)
            digest = response.bodySHA256
            bytes = Int64(response.bodyBytes)
            latency = Int64(response.latency * 1_000)
        case .failure(let failure):
            error = "\(failure.code.rawValue): \(failure.message)"
        }
        let attempt = WebhookDeliveryDecider.Attempt(
            webhookID: a.due.webhookID, projectID: a.due.projectID, sequence: a.due.sequence, messageID: a.due.messageID,
            number: a.due.attempts + 1, madeAt: a.madeAt, status: status, error: error, latencyMilliseconds: latency,
            answerSHA256: digest, answerBytes: bytes)
        let usage = try BillingReadModel(connections: connections).usageState(projects: [a.due.projectID])
        let decision = WebhookDeliveryDecider.record(attempt, now: now, jitter: configuration.jitter(), usage: usage)
        let metadata = EventMetadata(actor: Actor(.system, "webhooks"))
        let result = try store.append(AppendRequest(events: decision.events.map { EventToAppend($0, metadata: metadata) },
                                                    expectedVersions: decision.expectedVersions))
        return result.position
    }
}
