import Crypto
import EventStore
import Foundation
import LedgerCLI
import LedgerDomain
import LedgerJSON
import LedgerServices
import Stripe

/// `ledger-bench stripe`: Stripe's webhooks verified and recorded by the live endpoint of
/// the real service, against the same number of the same kind of webhooks verified alone
/// (HMAC-SHA256 and the event's parse) in the same run; then a redelivery of some of them,
/// which must append nothing.
enum StripeBenchmark {
    static let usage = """
        usage: ledger-bench stripe [--events N] [--rounds R] [--clients C] [--latency-samples K] [--every S]

        Makes database ledger_bench_stripe, runs the API (as a login in ledger_service, with
        one endpoint secret for app bench-stripe, as LEDGER_STRIPE_WEBHOOK_SECRETS gives it)
        and the projector in this process, and creates the app (app.created). Then R rounds
        (default 5), alternating: N webhooks (default 2000) POSTed by C client threads
        (default 4, each on a keep-alive connection of its own) to
        /v1/stripe/webhooks/bench-stripe, each a distinct event (an evt_ id of its own)
        signed as Stripe signs a delivery (Stripe-Signature: t and a v1 HMAC-SHA256) and
        answered 200 `recorded` (verified, read into its fact, appended by StripeEventAct);
        then the baseline, N other events of the same mix verified in this process by
        StripeWebhookVerifier.verify (the signature and the event's parse, nothing else) on
        C threads. The mix is whole customers' stories from StripeStandIn's scenarios, 8
        events each: checkout.session.completed (a subscription, later a one-time payment),
        customer.subscription.created and .updated (the renewal), invoice.paid (twice),
        payment_intent.succeeded and charge.refunded, their objects carrying the fields
        Stripe writes (bodies of 1-3 KB). Every event is signed just before its path's
        clock; an unmeasured tenth (at most 200) of each path goes first. After each
        round, outside its clock, the log must have grown by N rows. Then the projector
        must reach the head, and a sample of the recorded events (at most 200) is sent
        again, signed anew as Stripe redelivers: each must answer `duplicate`, and the
        log's rows must not change. Prints each round, then ends with `stripe: verified and
        recorded W webhooks/s (median of R rounds), bare HMAC verification V/s,
        recorded/verified X; p50 A ms, p99 B ms per webhook`, X the median of the rounds'
        ratios, the latencies over every round's webhooks.
        With K > 0 (default 0: not measured), before that line, recovery: a stand-in Stripe
        delivering to the app's endpoint, and a StripeSyncJob with LEDGER_STRIPE_SYNC_EVERY
        = S (default 60, at least 10, as the service requires), looking every 5 s, as a login
        in ledger_projector. K users each hold an active web subscription (delivered); one
        after the other, each one's customer.subscription.deleted is recorded by the
        stand-in with its webhook dropped, at a random moment of the sync's cycle, and timed
        until EntitlementsQuery shows the user holding nothing. Prints `stripe recovery:
        dropped event to entitlement corrected, sync every S s: p50 … s, p90 … s, max … s
        over K samples (expected at most S s plus a run)` and the bound at the default
        period (3600 s), computed from the runs measured.
        """

    static let appID = "bench-stripe"

    struct Options: Sendable {
        var events = 2_000
        var rounds = 5
        var clients = 4
        /// Dropped events timed to the entitlement corrected; 0: recovery not measured.
        var latencySamples = 0
        /// LEDGER_STRIPE_SYNC_EVERY of the recovery's sync job, in seconds.
        var every: Double = 60
        /// The database it makes (the test names one of its own).
        var database = "ledger_bench_stripe"
    }

    /// One round: the same number of webhooks through each path.
    struct Round: Sendable {
        var sent: Int
        /// Answered 200 `recorded`.
        var recorded: Int
        /// Rows the log grew by over the round's POSTs.
        var appended: Int64
        /// Webhooks verified and recorded per second, over HTTP.
        var recordedRate: Double
        /// Webhooks verified per second, bare.
        var verifiedRate: Double
        var ratio: Double { recordedRate / verifiedRate }
    }

    /// The redelivery of recorded events.
    struct Redelivery: Sendable {
        var sent: Int
        /// Answered 200 `duplicate`.
        var duplicates: Int
        var rowsBefore: Int64
        var rowsAfter: Int64
    }

    struct Result: Sendable {
        var options: Options
        var rounds: [Round]
        /// Every round's webhooks over HTTP, as one series.
        var latency: LatencySummary
        var redelivery: Redelivery
        /// Nil unless `latencySamples` > 0.
        var recovery: StripeRecoveryResult?

        var recordedMedian: Double { Percentile.median(rounds.map(\.recordedRate)) }
        var verifiedMedian: Double { Percentile.median(rounds.map(\.verifiedRate)) }
        var ratioMedian: Double { Percentile.median(rounds.map(\.ratio)) }

        /// The last line.
        var summary: String {
            String(format: "stripe: verified and recorded %.0f webhooks/s (median of %d rounds), bare HMAC verification %.0f/s, recorded/verified %.4f; p50 %.2f ms, p99 %.2f ms per webhook",
                   recordedMedian, rounds.count, verifiedMedian, ratioMedian, latency.p50, latency.p99)
        }
    }

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        _ = try measure(try options(arguments), environment: environment)
        return 0
    }

    /// The options `arguments` give, checked before anything is made.
    static func options(_ arguments: [String]) throws -> Options {
        let args = try Arguments(arguments, valued: ["events", "rounds", "clients", "latency-samples", "every"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected \(args.positionals[0])\n\n\(usage)") }
        var options = Options()
        options.events = try args.int("events", default: options.events)
        options.rounds = try args.int("rounds", default: options.rounds)
        options.clients = try args.int("clients", default: options.clients)
        options.latencySamples = try args.int("latency-samples", default: options.latencySamples)
        if let text = args.value("every") {
            guard let every = Double(text), every.isFinite else { throw UsageError("--every is a number of seconds, got \(text)") }
            options.every = every
        }
        guard options.events > 0, options.rounds > 0 else { throw UsageError("--events and --rounds must be positive") }
        guard (1...256).contains(options.clients) else { throw UsageError("--clients must be 1 to 256") }
        guard options.latencySamples >= 0 else { throw UsageError("--latency-samples must be 0 or more") }
        guard options.every >= 10 else { throw UsageError("--every must be at least 10 (seconds), as LEDGER_STRIPE_SYNC_EVERY must") }
        return options
    }

    /// Runs the benchmark, printing as it goes; the result for the caller (the test) to check.
    static func measure(_ options: Options, environment: LedgerEnvironment) throws -> Result {
        let url = try BenchDatabase.prepare(options.database, reuse: false, environment: environment)
        let secret = "whsec_" + Hex.encode(SecureRandom.bytes(24))
        let service = try BenchService(url: try BenchDatabase.apiLogin(on: url), environment: environment,
                                       stripeWebhooks: StripeWebhookEndpoints(secrets: [appID: [secret]]))
        defer { service.shutdown() }
        // The app, as an operator creates it: the API's login may not append it.
        let setupStore = EventStore(conninfo: url)
        let created = try setupStore.append(AppendRequest(events: [
            EventToAppend(stream: CatalogDecider.stream(appID), type: AppCreated.type,
                          data: try JSONValueEncoder().encode(AppCreated(appID: appID, name: appID, bundleID: "com.example.bench-stripe")),
                          metadata: EventMetadata(actor: Actor(.system, "ledger-bench"), reason: "ledger bench stripe creates its app")),
        ]))
        setupStore.close()
        let projector = BenchProjector(url: url)
        defer { projector.shutdown() }
        _ = try projector.wait(for: created.position, connections: service.connections)

        let n = options.events
        let warmup = max(1, min(n / 10, 200))
        var events = StripeBenchEvents(run: Hex.encode(SecureRandom.bytes(4)), now: Int64(SystemClock.now().seconds))
        let paths = StripeWebhookPaths(service: service, appID: appID, secret: secret, clients: options.clients, adminURL: url)
        let recordedWarmup = events.make("warmup", warmup), verifiedWarmup = events.make("verify-warmup", warmup)
        let sizes = (recordedWarmup + verifiedWarmup).map(\.body.count)
        BenchOutput.line("stripe: app \(appID) with one endpoint secret; \(n) events a round (stories of 8: checkout.session.completed ×2, customer.subscription.created, .updated, invoice.paid ×2, payment_intent.succeeded, charge.refunded; bodies \(sizes.min() ?? 0)–\(sizes.max() ?? 0) bytes, mean \(sizes.reduce(0, +) / max(sizes.count, 1))), \(options.clients) client threads; \(options.rounds) rounds alternating verified and recorded over HTTP then bare verification on \(options.clients) threads, after \(warmup) unmeasured of each; the projector running")
        _ = try checkedPost(paths, paths.sign(recordedWarmup))
        _ = try paths.verify(paths.sign(verifiedWarmup))

        var rounds: [Round] = []
        var series: [LatencySummary] = []
        var recordedEvents: [StripeBenchEvents.Event] = []
        for r in 0..<options.rounds {
            let toRecord = events.make("round-\(r + 1)", n)
            let (http, round) = try checkedPost(paths, paths.sign(toRecord))
            recordedEvents += toRecord
            series.append(http)
            let bare = try paths.verify(paths.sign(events.make("verify-\(r + 1)", n)))
            let measured = Round(sent: n, recorded: round.recorded, appended: round.appended,
                                 recordedRate: http.perSecond, verifiedRate: bare.perSecond)
            rounds.append(measured)
            BenchOutput.line(String(format: "round %d: verified and recorded %.0f webhooks/s (%d in %.2f s, p50 %.2f ms, p99 %.2f ms; %d recorded, the log +%lld rows); bare verification %.0f/s (%d in %.3f s); recorded/verified %.4f",
                                    r + 1, http.perSecond, n, http.seconds, http.p50, http.p99, round.recorded, round.appended,
                                    bare.perSecond, n, bare.seconds, measured.ratio))
        }
        func spread(_ values: [Double], _ format: String) -> String {
            String(format: format, values.min() ?? 0) + "–" + String(format: format, values.max() ?? 0)
        }
        BenchOutput.line(String(format: "stripe: verified and recorded %.0f webhooks/s, bare verification %.0f/s (medians of %d rounds); recorded/verified %.4f, the median of the rounds' ratios",
                                Percentile.median(rounds.map(\.recordedRate)), Percentile.median(rounds.map(\.verifiedRate)), rounds.count,
                                Percentile.median(rounds.map(\.ratio))) + " (spread \(spread(rounds.map(\.ratio), "%.4f")))")

        // Every recorded event folded, none a poison to a projection.
        _ = try projector.wait(for: try service.store.log.headPosition(), connections: service.connections)
        let redelivery = try redeliver(paths, recordedEvents)
        let recovery = options.latencySamples == 0 ? nil
            : try StripeRecoveryLatency(service: service, appID: appID, secret: secret, projectorURL: try BenchDatabase.projectorLogin(on: url),
                                        every: options.every).measure(samples: options.latencySamples, run: events.run)
        let result = Result(options: options, rounds: rounds, latency: LatencySummary(merging: series), redelivery: redelivery,
                            recovery: recovery)
        BenchOutput.line(result.summary)
        return result
    }

    /// POSTs `signed`, each to be `recorded`, and checks that the log grew by one row for
    /// each (outside the clock).
    private static func checkedPost(_ paths: StripeWebhookPaths, _ signed: [StripeWebhookPaths.Signed]) throws
        -> (LatencySummary, (recorded: Int, appended: Int64)) {
        let before = try paths.logRows()
        let (summary, recorded) = try paths.post(signed, expecting: "recorded")
        let appended = try paths.logRows() - before
        guard recorded == signed.count, appended == Int64(signed.count) else {
            throw BenchmarkFailure(.unexpectedResponse, "\(signed.count) webhooks sent, \(recorded) answered recorded, the log grew by \(appended) rows")
        }
        return (summary, (recorded, appended))
    }

    /// At most 200 of `recorded`, spread over the rounds, sent again signed anew (as Stripe
    /// redelivers an event: the same body, a new `t`): each must answer `duplicate` and
    /// the log's rows must stay as they were.
    private static func redeliver(_ paths: StripeWebhookPaths, _ recorded: [StripeBenchEvents.Event]) throws -> Redelivery {
        let step = max(1, recorded.count / 200)
        let sample = Array(stride(from: 0, to: recorded.count, by: step).prefix(200).map { recorded[$0] })
        let before = try paths.logRows()
        let (summary, duplicates) = try paths.post(paths.sign(sample), expecting: "duplicate")
        let after = try paths.logRows()
        let redelivery = Redelivery(sent: sample.count, duplicates: duplicates, rowsBefore: before, rowsAfter: after)
        BenchOutput.line("redelivery: \(sample.count) of the recorded events sent again, signed anew: \(duplicates) answered duplicate; the log's rows \(before) before, \(after) after"
                         + (after == before ? " (nothing appended)" : " (\(after - before) APPENDED)")
                         + String(format: "; p50 %.2f ms, p99 %.2f ms", summary.p50, summary.p99))
        guard duplicates == sample.count, after == before else {
            throw BenchmarkFailure(.unexpectedResponse, "a redelivery was recorded again: \(duplicates) of \(sample.count) duplicate, the log \(before) → \(after) rows")
        }
        return redelivery
    }
}
