import HTTP
import LedgerServices
import Observability

extension ServiceContext {
    /// `body` (the act's decision and append) once `act` is admitted: at once for a write
    /// that is never bounded, or while its projection keeps up; else the request is parked,
    /// holding no thread, until the projection's folds release it, or refused with 503
    /// `projection_behind` and `Retry-After` when it stays behind (nothing appended).
    func admitting(_ act: any LedgerAct, _ body: @escaping @Sendable () throws -> HTTPResponse) throws -> HTTPResponse {
        guard case .bounded(let projection, let events) = act.admission else {
            admission.countUnbounded()
            return try body()
        }
        let (admission, progress) = (self.admission, self.progress)
        // Admitted, the write is in flight until its append is over, whatever the outcome.
        let appending: @Sendable () throws -> HTTPResponse = {
            try AdmittedWrite(admission, events: events, projection: projection).run(body)
        }
        if admission.admitNow(events: events, projection: projection) { return try appending() }
        throw HTTPDeferral(
            timeout: admission.settings.wait,
            start: { wake in
                let ticket = admission.park(events: events, projection: projection, wake: wake)
                progress.setOthersWaiting(admission.parked > 0)
                return {
                    admission.cancel(ticket)
                    progress.setOthersWaiting(admission.parked > 0)
                }
            },
            resume: appending,
            expired: {
                let behind = progress.lag(of: projection)
                let seconds = Int(behind.seconds.rounded(.up))
                throw Problem(status: 503, code: "projection_behind",
                              detail: "the \(projection) projection is \(behind) behind the log, past the admission bound of \(admission.settings.bound ?? .zero), and did not catch up within \(admission.settings.wait); nothing was recorded: send the batch again (same ids) after Retry-After",
                              retryAfter: min(30, max(1, seconds)))
            })
    }

    /// The admission's counts, its bound, what is parked and the rate it predicts from, on
    /// `/metrics`.
    static func registerAdmissionMetrics(_ metrics: MetricsRegistry, admission: AdmissionControl,
                                         foldRate: @escaping @Sendable () -> Double?) {
        metrics.gauge("ledger_admission_fold_rate", help: "Events per second the projector last said it folds at, which admission predicts a usage write's wait from (absent until it has said).",
                      value: foldRate)
        metrics.gauge("ledger_admission_lag_bound_seconds", help: "The projections' lag past which usage writes are parked.") {
            admission.settings.bound?.seconds
        }
        metrics.gauge("ledger_admission_wait_seconds", help: "How long a parked usage write waits before it is refused.") {
            admission.settings.wait.seconds
        }
        metrics.gauge("ledger_admission_parked", help: "Usage writes parked now, waiting for the projections.") {
            Double(admission.parked)
        }
        metrics.gauge("ledger_admission_in_flight_events", help: "Usage events admitted whose appends the log has not answered yet.") {
            Double(admission.inFlightEvents)
        }
        for (outcome, tally) in [("admitted", \AdmissionControl.Counts.admitted), ("deferred", \.deferred),
                                 ("refused", \.refused), ("unbounded", \.unbounded)] {
            metrics.gauge("ledger_admission_\(outcome)_requests", help: "Writes \(outcome) by admission since the start (requests).") {
                Double(admission.counts[keyPath: tally].requests)
            }
            metrics.gauge("ledger_admission_\(outcome)_events", help: "Writes \(outcome) by admission since the start (events).") {
                Double(admission.counts[keyPath: tally].events)
            }
        }
    }
}
