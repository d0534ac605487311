import LedgerServices
import Observability

extension ServiceContext {
    /// The notification history sync of each app, from the monitor's last check (the runs
    /// are written by the projector's process; every instance of the API shows them alike).
    static func registerAppStoreSyncMetrics(_ metrics: MetricsRegistry, monitor: ServiceMonitor) {
        let labels = ["bundle_id", "environment"]
        func each(_ value: @escaping @Sendable (AppStoreSyncStatus.App) -> Double?) -> @Sendable () -> [MetricSample] {
            {
                monitor.readiness.appStoreSync?.apps.compactMap { app in
                    value(app).map { MetricSample(labels: ["bundle_id": app.bundleID, "environment": app.environment], value: $0) }
                } ?? []
            }
        }
        metrics.gauge("ledger_appstore_sync_last_success_timestamp_seconds",
                      help: "When the last notification history sync of each app finished without an error (Unix seconds).",
                      labelNames: labels, samples: each { $0.lastSucceeded?.finished?.seconds })
        metrics.gauge("ledger_appstore_sync_last_run_failed",
                      help: "1 when the last notification history sync of each app stopped on an error.",
                      labelNames: labels, samples: each { $0.last.failureCode == nil ? 0 : 1 })
        metrics.gauge("ledger_appstore_sync_overdue",
                      help: "1 when an app's last successful notification history sync is older than twice LEDGER_APPSTORE_SYNC_EVERY.",
                      labelNames: labels, samples: each { $0.overdue ? 1 : 0 })
        metrics.gauge("ledger_appstore_sync_seen",
                      help: "Notifications in Apple's history for the window of each app's last run.",
                      labelNames: labels, samples: each { Double($0.last.seen) })
        metrics.gauge("ledger_appstore_notifications_recovered",
                      help: "Notifications the log did not hold, recorded by the notification history syncs kept (180 days), per app.",
                      labelNames: labels, samples: each { Double($0.recovered) })
    }
}
