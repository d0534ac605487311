import Foundation
import Glibc

/// A one-line progress bar on stderr, drawn only when stderr is a terminal (logs and CI
/// output stay clean), redrawn at most ten times a second.
public final class ProgressBar: @unchecked Sendable {
    // Only used from the thread that drives the work.
    private let label: String
    private let enabled: Bool
    private let started = Date()
    private var lastDraw = Date.distantPast

    public init(label: String, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.enabled = enabled
    }

    public func update(done: Int64, total: Int64, force: Bool = false) {
        guard enabled else { return }
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let width = 30
        let filled = Int(fraction * Double(width))
        let rate = Double(done) / max(now.timeIntervalSince(started), 0.001)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line = "\r\(label) [\(bar)] \(Int(fraction * 100))% \(done)/\(total) \(Int(rate))/s"
        FileHandle.standardError.write(Data(line.utf8))
    }

    public func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
