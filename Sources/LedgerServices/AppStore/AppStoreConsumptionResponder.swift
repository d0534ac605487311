import AppStoreServerAPI
import EventStore
import LedgerDomain
import Postgres

/// Answers Apple's refund requests (docs/appstore.md, "Refund requests"): each look reads
/// the requests not answered yet (`AppStoreConsumptionQuery`), lets `ConsumptionDecider`
/// say what to do, sends Apple the consumption information with the key of the request's
/// app and environment, and records the one answer (`AppStoreConsumptionAnswerAct`).
/// What may succeed later (Apple's 429 and 5xx, a timeout, the database) is left for the
/// next look and reported, never recorded: the request stays unanswered until it is sent,
/// refused for good, or its 12 hours have passed.
public struct AppStoreConsumptionResponder: Sendable {
    /// An app and environment of LEDGER_APPSTORE_API_KEYS: its client and what its entry says.
    public struct App: Sendable {
        public let client: AppStoreServerAPIClient
        public let policy: ConsumptionPolicy

        public init(client: AppStoreServerAPIClient, policy: ConsumptionPolicy) {
            self.client = client
            self.policy = policy
        }

        public var bundleID: String { client.configuration.credentials.bundleID }

        /// Whether this app's key answers `request`: the same app (when the request names
        /// it) and the environment Apple signed the request in.
        func answers(_ request: AppStoreConsumptionRequested) -> Bool {
            (request.bundleID == nil || request.bundleID == bundleID)
                && request.environment == client.configuration.environment.signedEnvironment
        }
    }

    /// What one look did, by notification UUID.
    public struct Report: Sendable, Equatable {
        /// Answers recorded by this look.
        public var answered: [String: ConsumptionOutcome] = [:]
        /// Left for the next look, with why (Apple's code, `database_unavailable`, …).
        public var retrying: [String: String] = [:]
        /// No key of this process answers them: they wait for one, or for their expiry.
        public var unmatched: [String] = []
    }

    public let apps: [App]
    let queries: QueryRunner
    let acts: ActRunner
    let now: LedgerClock
    let actor = Actor(.system, "appstore-consumption")

    public init(apps: [App], connections: PostgresPool, store: EventStore, now: @escaping LedgerClock) {
        self.apps = apps
        self.queries = QueryRunner(connections: connections, clock: now)
        self.acts = ActRunner(store: store, connections: connections, now: now)
        self.now = now
    }

    /// One look at the requests not answered yet; `shouldStop` is asked between requests.
    /// Throws only when the requests cannot be read at all.
    public func look(shouldStop: () -> Bool = { false }) throws -> Report {
        var report = Report()
        let pending = try queries.answer(AppStoreConsumptionQuery(), as: .operator("appstore consumption")) ?? []
        for p in pending {
            if shouldStop() { break }
            let request = p.request
            let uuid = request.notificationUUID
            let at = now()
            guard let app = apps.first(where: { $0.answers(request) }) else {
                if at >= request.respondBy {
                    let detail = "no key of LEDGER_APPSTORE_API_KEYS answers \(request.bundleID ?? "this app") in \(request.environment)"
                    record(.expired(detail: detail), to: request, &report)
                } else {
                    report.unmatched.append(uuid)
                }
                continue
            }
            if request.orgID != nil && p.customer == nil {
                // The organization a request names is in the projection that recorded it; if it
                // is not, the projection is being rebuilt: the next look sees it.
                report.retrying[uuid] = "projection_behind"
                continue
            }
            switch ConsumptionDecider.verdict(for: request, customer: p.customer, policy: app.policy, now: at) {
            case .record(let answer):
                record(answer, to: request, &report)
            case .send(let information):
                do {
                    // Answered meanwhile (another projector, a look that recorded and was cut off
                    // before its projection moved): nothing is sent twice.
                    if try AppStoreConsumptionAnswerAct.isAnswered(request, log: acts.store.log) { continue }
                } catch {
                    report.retrying[uuid] = "database_unavailable"
                    continue
                }
                do {
                    try app.client.sendConsumptionInformation(transactionID: request.transactionID, information)
                    record(.sent(information), to: request, &report)
                } catch let error {
                    if let status = error.status, (400..<500).contains(status), status != 401, !error.isRetryable {
                        record(.refused(information, status: status, code: error.code.rawValue, appleErrorCode: error.appleErrorCode,
                                        message: error.message), to: request, &report)
                    } else {
                        report.retrying[uuid] = error.code.rawValue
                    }
                }
            }
        }
        return report
    }

    private func record(_ answer: ConsumptionDecider.Answer, to request: AppStoreConsumptionRequested, _ report: inout Report) {
        let uuid = request.notificationUUID
        let metadata = EventMetadata(actor: actor, correlationID: uuid)
        do {
            let (outcome, _) = try acts.run(AppStoreConsumptionAnswerAct(answer, to: request), metadata: metadata, key: nil)
            switch outcome {
            case .appended(let result) where !result.replayed:
                report.answered[uuid] = switch answer {
                case .sent: .sent
                case .refused: .failed
                case .declined: .declined
                case .expired: .expired
                }
            case .appended, .alreadyRecorded: break
            case .refused(let refusal): report.retrying[uuid] = refusal.code.rawValue
            case .conflict: report.retrying[uuid] = "conflict"
            case .outcomeUnknown, .unavailable: report.retrying[uuid] = "database_unavailable"
            case .projectionBehind: report.retrying[uuid] = "projection_behind"
            }
        } catch {
            report.retrying[uuid] = "database_unavailable"
        }
    }
}
