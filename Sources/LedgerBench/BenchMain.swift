import Foundation
import LedgerCLI

/// `ledger-bench`: the benchmarks, in an executable of their own, apart from the service's
/// binary (they link a test-only HTTP client, and write throwaway logs).
public enum BenchMain {
    public static func run(_ argv: [String] = CommandLine.arguments) -> Int32 {
        let args = Array(argv.dropFirst())
        guard let first = args.first, !["--help", "-h", "help"].contains(first) else {
            print(BenchCommand.usage)
            return args.isEmpty ? 2 : 0
        }
        if args.contains("--help") || args.contains("-h") {
            print(BenchCommand.usage)
            return 0
        }
        do {
            return try BenchCommand.run(arguments: args, environment: LedgerEnvironment())
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("ledger-bench: \(error)\n\n\(BenchCommand.usage)\n".utf8))
            return 2
        } catch {
            FileHandle.standardError.write(Data("ledger-bench \(first): \(error)\n".utf8))
            return 1
        }
    }
}
