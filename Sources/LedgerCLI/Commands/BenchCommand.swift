import Foundation

/// `ledger bench …`: benchmarks that report a speed as a ratio against a baseline measured
/// in the same run, never as an absolute number alone (the machines are shared and noisy).
public enum BenchCommand: LedgerCommand {
    public static let name = "bench"
    public static let summary = "Benchmarks: `ledger bench append` (group commit vs raw multi-row INSERTs)."
    public static let usage = """
        usage: ledger bench append [--events N] [--writers N] [--window N]

        append   Appends N events (default 200000, ~300-byte JSON payloads, over 1000
                 streams) into the log of DATABASE_URL through the real append path, from
                 --writers concurrent writers (default 32), each keeping up to --window appends
                 in flight (default 64) with an exact expected version per append. In the same
                 run it measures the baseline: the same rows inserted by multi-row INSERTs of
                 500 rows through libpq into a scratch table with the same columns and indexes
                 as `events` (no lock, no hash chain, no version check), from 1, 2 and 4
                 connections, keeping the best. Ends with the line
                 `append: A events/s; raw insert: R events/s; ratio: A/R`.
                 The database must be migrated; the events it appends stay in the log (use a
                 throwaway database: `make bench` makes one).
        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        guard let sub = arguments.first else { throw UsageError("which benchmark? (append)") }
        let rest = Array(arguments.dropFirst())
        switch sub {
        case "append": return try AppendBenchmark.run(arguments: rest, environment: environment)
        default: throw UsageError("unknown benchmark \(sub)")
        }
    }
}
