import Glibc

/// The CPU time this process has used, user and system, over every thread: what a
/// benchmark divides by the events it moved to say what the ledger's own code costs, apart
/// from PostgreSQL's (another process).
enum ProcessCPU {
    static func seconds() -> Double {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
