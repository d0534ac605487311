import Synchronization

/// Keeps lines in memory, for tests that check what was logged.
public final class MemoryLogSink: LogSink {
    private let storage = Mutex<[String]>([])

    public init() {}

    public func write(line: String) {
        storage.withLock { $0.append(line) }
    }

    /// Every line written so far, oldest first.
    public var lines: [String] {
        storage.withLock { $0 }
    }

    /// Forgets the lines written so far.
    public func removeAll() {
        storage.withLock { $0.removeAll() }
    }
}
