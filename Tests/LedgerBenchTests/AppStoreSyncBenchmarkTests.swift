import Crypto
@testable import LedgerBench
import LedgerCLI
import Postgres
import Testing
import TestSupport

/// `ledger-bench appstore-sync` end to end with tiny numbers on the test cluster: both paths
/// measured in alternating rounds, every notification recorded and its plan changed (the
/// benchmark checks that itself and throws otherwise), and a notification dropped while the
/// job runs recovered on its schedule. It needs the test cluster, and fails without it.
@Suite("ledger-bench appstore-sync", .bounded)
struct AppStoreSyncBenchmarkTests {
    @Test("tiny numbers end to end: two rounds of each path, their medians and ratio, one drop recovered by the job within a cycle")
    func endToEnd() throws {
        let cluster = try TestPostgres.requireURL()
        var options = AppStoreSyncBenchmark.Options()
        options.notifications = 3
        options.rounds = 2
        options.latencySamples = 1
        options.every = 2
        options.look = 0.25
        options.database = "ledger_bench_appstore_sync_test_" + Hex.encode(SecureRandom.bytes(4))
        defer {
            if let admin = try? PostgresConnection(conninfo: cluster) {
                _ = try? admin.query("DROP DATABASE IF EXISTS \(admin.quoteIdentifier(options.database)) WITH (FORCE)")
            }
        }
        let environment = LedgerEnvironment(["DATABASE_URL": cluster, "LEDGER_SQL_DIR": TestDatabase.migrationsDirectory])
        let result = try AppStoreSyncBenchmark.measure(options, environment: environment)

        #expect(result.rounds.count == 2)
        for round in result.rounds {
            #expect(round.live > 0 && round.sync > 0 && round.pages == 1, "\(round)")
        }
        #expect(result.ratioMedian == Percentile.median(result.rounds.map { $0.sync / $0.live }))
        let sample = try #require(result.samples.first)
        #expect(result.samples.count == 1)
        // At most a cycle, a look and the run itself, with room for a slow test machine.
        #expect(sample.seconds > 0 && sample.seconds < options.every + options.look + 10, "\(sample)")
        #expect(sample.wait != nil && sample.run != nil, "the run that recovered it is found: \(sample)")
        #expect(result.summary.hasPrefix("appstore-sync: recovered "))
        #expect(result.summary.contains("(median of 2)") && result.summary.contains("at every 2 s"), "\(result.summary)")
    }

    @Test("its options: a page larger than Apple's is refused before anything is made")
    func options() throws {
        #expect(throws: UsageError.self) {
            try AppStoreSyncBenchmark.run(arguments: ["--page-size", "21"], environment: LedgerEnvironment([:]))
        }
        #expect(throws: UsageError.self) {
            try AppStoreSyncBenchmark.run(arguments: ["--every", "0"], environment: LedgerEnvironment([:]))
        }
    }
}
