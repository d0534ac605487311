import Foundation

/// Files a test writes for a command to read (`--display`, a JWS, a PEM), kept in one
/// directory per test process that is removed when the process exits, so a run of the
/// suite leaves nothing behind in the temporary directory.
public enum ScratchFile {
    /// The process's scratch directory, created on first use; its removal is registered
    /// with `atexit` at the same time. Directories left by processes that were killed
    /// (whose pid no longer runs) are removed then too.
    public static let directory: String = {
        let base = NSTemporaryDirectory()
        let prefix = "ledger-tests-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix(prefix) {
            if let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(atPath: base + name)
            }
        }
        let path = base + prefix + String(getpid())
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: ScratchFile.directory) }
        return path
    }()

    /// Writes `text` to a new file named `<prefix>-<uuid><suffix>` and returns its path.
    public static func write(_ text: String, prefix: String = "file", suffix: String = "") throws -> String {
        let path = directory + "/" + prefix + "-" + UUID().uuidString + suffix
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
