import Foundation

/// What `ledger-bench stripe --latency-samples K` measured: each dropped event's time to
/// the entitlement corrected, and what the service's default period implies, computed
/// from the runs measured (an hour's period would take hours to sample).
struct StripeRecoveryResult: Sendable {
    /// The sync's period, in seconds.
    var every: Double
    var samples: [StripeRecoveryLatency.Sample]

    /// LEDGER_STRIPE_SYNC_EVERY's default.
    static let defaultPeriod = 3_600.0

    var latencies: [Double] { samples.map(\.seconds).sorted() }
    var p50: Double { Percentile.nearestRank(latencies, 0.5) }
    var p90: Double { Percentile.nearestRank(latencies, 0.9) }
    var max: Double { latencies.last ?? 0 }

    /// Seconds: the longest, over the samples, from the recovering run's start until the
    /// entitlements read showed the correction (the run, and the projector's fold of what
    /// it recorded); the longest run alone when no run was found.
    var runTime: Double {
        samples.compactMap(\.runToCorrected).max() ?? samples.compactMap(\.run).max() ?? 0
    }

    /// `stripe recovery: dropped event to entitlement corrected, sync every S s: p50 … s,
    /// p90 … s, max … s over K samples (expected at most S s plus a run)`.
    var summary: String {
        "stripe recovery: dropped event to entitlement corrected, sync every \(Self.seconds(every)) s: "
            + String(format: "p50 %.1f s, p90 %.1f s, max %.1f s", p50, p90, max)
            + " over \(samples.count) sample\(samples.count == 1 ? "" : "s") (expected at most \(Self.seconds(every)) s plus a run)"
    }

    /// The bound at the default period, computed from `runTime`.
    var defaultPeriodLine: String {
        "at the default period (\(Self.seconds(Self.defaultPeriod)) s): at most \(Self.seconds(Self.defaultPeriod)) s + run time "
            + String(format: "%.0f ms", runTime * 1_000) + "; on average half the period"
    }

    /// Seconds as given on the command line: `60`, `12.5`.
    static func seconds(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
