import EventStore
import LedgerDomain
import LedgerServices
import Projections

extension AdminSession {
    /// The shared acts, on the command's pools and clock.
    var acts: ActRunner { ActRunner(store: services.store, connections: connections, now: services.now) }

    /// Runs a shared act (LedgerServices) as the console runs it. This is a process of
    /// its own, so where the console answers "retry" when a projection is behind what the
    /// act judges (or not created yet), the command waits for it and decides again.
    func perform(_ act: any LedgerAct, correlationID: String? = nil) throws -> [AppendedRecord] {
        let runner = acts
        let metadata = try metadata(correlationID: correlationID)
        var attempts = 0
        while true {
            let (outcome, request) = try runner.run(act, metadata: metadata, key: idempotencyKey)
            switch outcome {
            case .appended(let result):
                return Self.records(request?.events ?? [], result)
            case .alreadyRecorded:
                return []
            case .projectionBehind(let behind) where attempts < 3:
                attempts += 1
                try waitFor(AllProjections.named(behind.projection) ?? BillingProjection(), position: behind.target)
            default:
                throw error(for: outcome)
            }
        }
    }

    /// Decides `act` without appending and throws its refusal: a command checks this way
    /// before it stores anything the act will name (an operator's credential).
    func check(_ act: any LedgerAct) throws {
        switch try acts.prepare(act) {
        case .decided, .stopped(.alreadyRecorded): return
        case .stopped(let outcome): throw error(for: outcome)
        }
    }

    /// The command's error for an outcome that appended nothing (or may have): the one
    /// reading of outcomes for `ledger admin`.
    func error(for outcome: ActOutcome) -> AdminError {
        let rerun = "re-run the same command with --idempotency-key \(idempotencyKey)"
        switch outcome {
        case .appended, .alreadyRecorded:
            return AdminError(.appendFailed, "internal: a recorded outcome read as an error")
        case .refused(let refusal):
            return AdminError(refusal)
        case .conflict(let conflict):
            switch conflict.kind {
            case .keyReused:
                return AdminError(.conflict, "\(conflict.detail); nothing was appended")
            case .streamMoved(let stream):
                return AdminError(.conflict, "\(stream) changed while the command ran (\(conflict.detail)); nothing was appended: check and retry")
            case .decideAgain:
                return AdminError(.conflict, "concurrent appends kept changing what the command decides on (\(conflict.detail)); nothing was appended: retry")
            }
        case .outcomeUnknown(let detail):
            return AdminError(.outcomeUnknown,
                "the database failed while committing and whether the command was recorded is unknown (\(detail)): \(rerun), which records it at most once")
        case .unavailable(let detail):
            return AdminError(.appendFailed, "the event log could not be written, nothing was appended (\(detail)): \(rerun) once the database is back")
        case .projectionBehind(let behind) where behind.reached == nil:
            return AdminError(.projectionUnavailable,
                "the \(behind.projection) projection does not exist yet: start the projector (`ledger project`) and retry")
        case .projectionBehind(let behind):
            return AdminError(.projectionBehind,
                "the \(behind.projection) projection has not applied position \(behind.target) (it is at \(behind.reached.map(String.init) ?? "nothing")): is `ledger project` running?")
        }
    }

    /// What the receipt lists of an append's events.
    static func records(_ events: [EventToAppend], _ result: AppendResult) -> [AppendedRecord] {
        zip(events, result.events).map { event, appended in
            AppendedRecord(type: event.type, stream: appended.stream, streamVersion: appended.streamVersion,
                           position: appended.position, eventID: appended.eventID, data: event.data,
                           correctsPosition: event.correctsPosition, alreadyRecorded: appended.alreadyRecorded || result.replayed)
        }
    }
}
