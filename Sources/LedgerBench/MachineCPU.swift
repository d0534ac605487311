import Foundation

/// The CPU time the whole machine has spent busy (user, nice, system, interrupts), every
/// process together, from `/proc/stat`: what a replay costs its own process and
/// PostgreSQL's backends at once. A replay's wall time moves by ±15 % from one round to
/// the next; its CPU says whether the round was slow because the machine was (the CPU
/// moves with it) or because the work waited (the CPU stays put).
enum MachineCPU {
    /// Busy seconds since boot; nil where `/proc/stat` cannot be read (not Linux).
    static func seconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        // cpu user nice system idle iowait irq softirq steal …, in clock ticks.
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 7 else { return nil }
        let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
