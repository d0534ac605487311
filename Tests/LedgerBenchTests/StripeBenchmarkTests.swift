import Crypto
import Foundation
@testable import LedgerBench
import LedgerCLI
import Postgres
import Stripe
import Testing
import TestSupport

/// `ledger-bench stripe` end to end with tiny numbers on the test cluster: both paths
/// measured in alternating rounds, every webhook answered `recorded` and appended once
/// (the benchmark checks that itself and throws otherwise), and a redelivery appending
/// nothing. It needs the test cluster, and fails without it.
@Suite("ledger-bench stripe", .bounded)
struct StripeBenchmarkTests {
    @Test("tiny numbers end to end: two rounds of each path, recorded == sent, the redelivery answered duplicate and appending nothing")
    func endToEnd() throws {
        let cluster = try TestPostgres.requireURL()
        var options = StripeBenchmark.Options()
        options.events = 20
        options.rounds = 2
        options.clients = 2
        options.database = "ledger_bench_stripe_test_" + Hex.encode(SecureRandom.bytes(4))
        defer {
            if let admin = try? PostgresConnection(conninfo: cluster) {
                _ = try? admin.query("DROP DATABASE IF EXISTS \(admin.quoteIdentifier(options.database)) WITH (FORCE)")
            }
        }
        let environment = LedgerEnvironment(["DATABASE_URL": cluster, "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory])
        let result = try StripeBenchmark.measure(options, environment: environment)

        #expect(result.rounds.count == 2)
        for round in result.rounds {
            #expect(round.sent == 20 && round.recorded == round.sent && round.appended == Int64(round.sent), "\(round)")
            #expect(round.recordedRate > 0 && round.verifiedRate > 0, "\(round)")
        }
        #expect(result.latency.count == 40)
        #expect(result.ratioMedian == Percentile.median(result.rounds.map { $0.recordedRate / $0.verifiedRate }))
        #expect(result.redelivery.sent == 40 && result.redelivery.duplicates == 40, "\(result.redelivery)")
        #expect(result.redelivery.rowsAfter == result.redelivery.rowsBefore)

        // stripe: verified and recorded W webhooks/s (median of 2 rounds), bare HMAC verification V/s,
        // recorded/verified X; p50 A ms, p99 B ms per webhook
        let pattern = #/^stripe: verified and recorded \d+ webhooks/s \(median of 2 rounds\), bare HMAC verification \d+/s, recorded/verified \d+\.\d{4}; p50 \d+\.\d{2} ms, p99 \d+\.\d{2} ms per webhook$/#
        #expect(result.summary.wholeMatch(of: pattern) != nil, "\(result.summary)")
    }

    @Test("the mix: whole stories of distinct events, bodies of 1-3 KB, each verifying and read into its fact")
    func mix() throws {
        var events = StripeBenchEvents(run: "test", now: Int64(Date().timeIntervalSince1970))
        let made = events.make("mix", 40)
        #expect(made.count == 40)
        #expect(Set(made.map(\.id)).count == 40)
        #expect(made.prefix(8).map(\.type) == StripeBenchEvents.storyTypes)
        let secret = "whsec_test_0123456789abcdefghijkl"
        let verifier = StripeWebhookVerifier(secrets: [secret])
        let now = Date().timeIntervalSince1970
        for event in made {
            #expect((1_024...3_072).contains(event.body.count), "\(event.type) is \(event.body.count) bytes")
            let header = StripeBenchEvents.signature(event.body, secret: secret, timestamp: Int64(now))
            let verified = try verifier.verify(header: header, body: event.body, now: now)
            #expect(verified.id == event.id && verified.type == event.type)
            let recorded = try verified.recorded(appID: "bench-stripe")
            #expect(recorded.fact.kind != "seen", "\(event.type) is read into a fact of its own")
        }
    }

    @Test("recovery: one deletion dropped while the sync job runs every 10 s, corrected within a period and a run")
    func recovery() throws {
        let cluster = try TestPostgres.requireURL()
        var options = StripeBenchmark.Options()
        options.events = 8
        options.rounds = 1
        options.clients = 1
        options.latencySamples = 1
        options.every = 10
        options.database = "ledger_bench_stripe_recovery_test_" + Hex.encode(SecureRandom.bytes(4))
        defer {
            if let admin = try? PostgresConnection(conninfo: cluster) {
                _ = try? admin.query("DROP DATABASE IF EXISTS \(admin.quoteIdentifier(options.database)) WITH (FORCE)")
            }
        }
        let environment = LedgerEnvironment(["DATABASE_URL": cluster, "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory])
        let result = try StripeBenchmark.measure(options, environment: environment)

        let recovery = try #require(result.recovery)
        let sample = try #require(recovery.samples.first)
        #expect(recovery.samples.count == 1)
        // At most a period, a look and the run, with room for a slow test machine.
        #expect(sample.seconds > 0 && sample.seconds < options.every + StripeRecoveryLatency.look + 10, "\(sample)")
        #expect(sample.wait != nil && sample.run != nil && sample.phase != nil, "the run that recovered it is found: \(sample)")
        #expect(recovery.summary.hasPrefix("stripe recovery: dropped event to entitlement corrected, sync every 10 s: p50 "), "\(recovery.summary)")
        #expect(recovery.summary.hasSuffix(" over 1 sample (expected at most 10 s plus a run)"), "\(recovery.summary)")
        let line = #/^at the default period \(3600 s\): at most 3600 s \+ run time \d+ ms; on average half the period$/#
        #expect(recovery.defaultPeriodLine.wholeMatch(of: line) != nil, "\(recovery.defaultPeriodLine)")
    }

    @Test("its options: no events, no rounds, no clients, negative samples or a period under 10 s are refused before anything is made; recovery is off by default")
    func options() throws {
        for arguments in [["--events", "0"], ["--rounds", "0"], ["--clients", "0"], ["extra"], ["--latency-samples", "-1"],
                          ["--every", "9"], ["--every", "soon"], ["--latency-samples", "2", "--every", "5"]] {
            #expect(throws: UsageError.self) {
                try StripeBenchmark.run(arguments: arguments, environment: LedgerEnvironment([:]))
            }
        }
        let defaults = try StripeBenchmark.options([])
        #expect(defaults.latencySamples == 0 && defaults.every == 60)
        let given = try StripeBenchmark.options(["--latency-samples", "5", "--every", "10"])
        #expect(given.latencySamples == 5 && given.every == 10)
    }
}
