import Dispatch
import EventStore
import Foundation
import LedgerCLI
import LedgerJSON
import Postgres
import ProjectionEngine
import Projections

/// `ledger-bench replay`: every projection rebuilt from position 1 through the path
/// `ledger replay` takes, against the baseline of reading and decoding the same events.
enum ReplayBenchmark {
    static let usage = """
        usage: ledger-bench replay [--events N] [--projects P] [--batch B] [--rounds K] [--only NAME,…]

        Builds (or reuses) a log of N events (default 1000000): the read benchmark's mix
        over P self-paying projects (default 300) where every tenth event is instead one of
        the other projections' (organizations, administrators, plans, App Store
        subscriptions and notifications, IAP purchases, offer impressions, app status),
        Then, in the same run, each from a cluster at rest (every table vacuumed and
        analysed as autovacuum would, then a checkpoint): the scan, every event read in
        batches of B (default \(ProjectionRebuilder.defaultBatchSize), as `ledger replay`) and its payload and metadata parsed; and the replay, every projection rebuilt from
        position 1 into fresh schemas and swapped in, as `ledger replay --yes` does (the
        comparison with the live projections, in the first round, is timed apart). K rounds
        (default 5) in alternating order (scan first, then replay first, …). Ends with the
        line `replay: X events/s; scan: S events/s; ratio: M, the median of K alternating
        rounds (spread L to H)`, X and S the medians of the rounds' rates. `--only` rebuilds
        just the projections named (e.g. `--only billing`), to see what each one costs.
        """

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["events", "projects", "batch", "rounds", "only"])
        let events = try args.int("events", default: 1_000_000)
        let projects = try args.int("projects", default: 300)
        let batch = try args.int("batch", default: ProjectionRebuilder.defaultBatchSize)
        let rounds = try args.int("rounds", default: 5)
        let projections = try selected(args.value("only"))
        guard projects > 0, batch > 0, rounds > 0 else { throw UsageError("--projects, --batch and --rounds must be positive") }
        guard events >= BenchReadLog.minimumEvents(projects: projects) * 2 else {
            throw UsageError("--events must be at least 10 per project")
        }
        let url = try BenchDatabase.prepare(BenchReadLog.databaseName(events: events, projects: projects, extras: true), reuse: true, environment: environment)
        let connection = try PostgresConnection(conninfo: url)
        let log = BenchReadLog(events: events, projects: projects, extras: true)
        try log.reuseOrBuild(url: url, connection: connection)
        // A log as autovacuum leaves it (hint bits set, the visibility map current), so that
        // neither the scan nor the replay pays for a build that has just finished, and runs
        // compare: on a freshly built log both read 30 % slower until autovacuum has passed.
        // (`settle`, before each measurement, vacuums it with the rest.)
        let head = try LogReader(connection).headPosition()

        let rebuilder = ProjectionRebuilder(conninfo: url, batchSize: batch, log: { level, message, fields in
            guard level == .warning || level == .error else { return }
            BenchOutput.line("replay \(level.rawValue): \(message) \(fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
        })
        // Each measurement from a cluster at rest: a replay leaves some 1,600,000 new rows
        // that autovacuum would then read, and enough WAL that a checkpoint falls inside a
        // later round; either lands on whichever measurement comes next, scan or replay.
        func settle() { AppendBenchmark.settle(url: url, tables: "") }
        func scanRate() throws -> Double {
            settle()
            let cpu = MachineCPU.seconds()
            let scan = try measure { try scanLog(connection: connection, batch: batch) }
            BenchOutput.line(String(format: "scan: read in %.2f s", scan.seconds) + machineCPU(since: cpu))
            return Double(scan.value) / scan.seconds
        }
        // The machine's CPU over a measurement, every process (`MachineCPU`): whether a
        // slow round was a slow machine or work that waited.
        func machineCPU(since start: Double?) -> String {
            guard let start, let end = MachineCPU.seconds() else { return "" }
            return String(format: ", %.1f CPU-s on the machine", end - start)
        }
        func replayRate(compare: Bool) throws -> Double {
            settle()
            let cpu = MachineCPU.seconds()
            let built = try measure { try rebuilder.build(projections) }
            let buildCPU = machineCPU(since: cpu)
            if compare {
                let compared = try measure { try built.value.differences() }
                for d in compared.value {
                    BenchOutput.line("replay: \(d.projection) \(d.isUnchanged ? "unchanged" : d.livePosition == nil ? "created" : "changed") at position \(d.position)")
                }
                BenchOutput.line(String(format: "replay: compared with the live projections in %.2f s, apart", compared.seconds))
            }
            let swapped = try measure { try built.value.swap() }
            BenchOutput.line(String(format: "replay: rebuilt in %.2f s", built.seconds) + buildCPU + String(format: "; swapped in %.2f s", swapped.seconds))
            return Double(head) / (built.seconds + swapped.seconds)
        }
        // Alternating (scan, replay; replay, scan; …), so that neither always runs on the
        // warmer cache or the quieter minute, and the median of the rounds is the answer.
        var rates: [(replay: Double, scan: Double)] = []
        for round in 0..<rounds {
            let (replay, scan): (Double, Double)
            if round % 2 == 0 {
                scan = try scanRate()
                replay = try replayRate(compare: round == 0)
            } else {
                replay = try replayRate(compare: false)
                scan = try scanRate()
            }
            rates.append((replay, scan))
            BenchOutput.line("round \(round + 1) (" + (round % 2 == 0 ? "scan first" : "replay first") + "): "
                             + String(format: "replay %.0f events/s, scan %.0f events/s, ratio %.2f", replay, scan, replay / scan))
        }
        let ratios = rates.map { $0.replay / $0.scan }
        print(String(format: "replay: %.0f events/s; scan: %.0f events/s; ratio: %.2f, the median of %d alternating rounds (spread %.2f to %.2f)",
                     Percentile.median(rates.map(\.replay)), Percentile.median(rates.map(\.scan)), Percentile.median(ratios),
                     ratios.count, ratios.min() ?? 0, ratios.max() ?? 0))
        return 0
    }

    /// Every projection, or those `--only` names.
    private static func selected(_ names: String?) throws -> [any Projection] {
        guard let names else { return AllProjections.all }
        let wanted = names.split(separator: ",").map { String($0) }
        let known = AllProjections.all.map(\.name)
        if let unknown = wanted.first(where: { !known.contains($0) }) {
            throw UsageError("--only: no projection \(unknown) (there are \(known.joined(separator: ", ")))")
        }
        return AllProjections.all.filter { wanted.contains($0.name) }
    }

    /// Reads the whole log as the rebuild does and parses every payload and metadata.
    private static func scanLog(connection: PostgresConnection, batch: Int) throws -> Int64 {
        var after: Int64 = 0, count: Int64 = 0
        while true {
            let events = try LogReader(connection).read(after: after, limit: batch)
            for event in events {
                _ = try event.data()
                _ = try event.metadata()
            }
            count += Int64(events.count)
            guard events.count == batch, let last = events.last else { return count }
            after = last.position
        }
    }

    private static func measure<T>(_ body: () throws -> T) rethrows -> (value: T, seconds: Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
