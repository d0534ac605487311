import LedgerServices
import Observability

extension ServiceContext {
    /// The Stripe events sync of each app, from the monitor's last check (the runs are
    /// written by the projector's process or an operator's reconcile).
    static func registerStripeSyncMetrics(_ metrics: MetricsRegistry, monitor: ServiceMonitor) {
        func each(_ value: @escaping @Sendable (StripeSyncStatus.App) -> Double?) -> @Sendable () -> [MetricSample] {
            {
                monitor.readiness.stripeSync?.apps.compactMap { app in value(app).map { MetricSample(labels: ["app_id": app.appID], value: $0) } } ?? []
            }
        }
        metrics.gauge("ledger_stripe_sync_last_success_timestamp_seconds",
                      help: "When the last Stripe events sync of each app finished without an error (Unix seconds).",
                      labelNames: ["app_id"], samples: each { $0.lastSucceeded?.finished?.seconds })
        metrics.gauge("ledger_stripe_sync_last_run_failed", help: "1 when the last Stripe events sync of each app stopped on an error.",
                      labelNames: ["app_id"], samples: each { $0.last.failureCode == nil ? 0 : 1 })
        metrics.gauge("ledger_stripe_sync_overdue",
                      help: "1 when an app's last successful Stripe events sync is older than twice LEDGER_STRIPE_SYNC_EVERY.",
                      labelNames: ["app_id"], samples: each { $0.overdue ? 1 : 0 })
        metrics.gauge("ledger_stripe_sync_seen", help: "Events Stripe listed for the last run of each app.",
                      labelNames: ["app_id"], samples: each { Double($0.last.seen) })
        metrics.gauge("ledger_stripe_events_recovered",
                      help: "Stripe events the log did not hold, recorded by the syncs kept (90 days), per app.",
                      labelNames: ["app_id"], samples: each { Double($0.recovered) })
    }
}
