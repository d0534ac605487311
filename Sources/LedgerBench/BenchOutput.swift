#if canImport(Glibc)
import LedgerCLI
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The benchmarks' output: one line at a time, flushed at once, so that progress lines
/// show while a long run goes on even when the output is a pipe or a file.
enum BenchOutput {
    static func line(_ text: String) {
        print(text)
        fflush(nil)
    }
}
