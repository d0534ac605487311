import LedgerServices
import Observability

extension ServiceContext {
    /// The drift check of each projection, from the monitor's last check (the checks are
    /// written by the projector's process, docs/operations.md, "Drift").
    static func registerDriftCheckMetrics(_ metrics: MetricsRegistry, monitor: ServiceMonitor) {
        func each(_ value: @escaping @Sendable (DriftStatus.Projection) -> Double?) -> @Sendable () -> [MetricSample] {
            {
                monitor.readiness.drift?.projections.compactMap { p in value(p).map { MetricSample(labels: ["projection": p.projection], value: $0) } } ?? []
            }
        }
        metrics.gauge("ledger_projection_drift_accounts",
                      help: "Accounts whose live rows the last completed drift check found different from the log's fold, per projection.",
                      labelNames: ["projection"], samples: each { Double($0.drifted.count) })
        metrics.gauge("ledger_projection_drift_checked_accounts",
                      help: "Accounts the last completed drift check folded again from the log and compared, per projection.",
                      labelNames: ["projection"], samples: each { $0.lastCompleted.map { Double($0.accounts.count) } })
        metrics.gauge("ledger_projection_drift_last_check_timestamp_seconds",
                      help: "When the last completed drift check of each projection finished (Unix seconds).",
                      labelNames: ["projection"], samples: each { $0.lastCompleted?.finished?.seconds })
        metrics.gauge("ledger_projection_drift_last_check_failed",
                      help: "1 when the last drift check of a projection stopped on an error (not a replay under way).",
                      labelNames: ["projection"],
                      samples: each { $0.last.failureCode.map { DriftCheckRecord.benignFailures.contains($0) ? 0 : 1 } ?? 0 })
    }
}
