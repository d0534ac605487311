#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Writes each line to standard error with a single `write(2)` per line.
///
/// The mutex keeps lines from this process whole even when a line is longer than
/// `PIPE_BUF` (where the kernel stops guaranteeing atomic pipe writes) or a write is
/// partial and has to be continued.
public final class StandardErrorLogSink: LogSink {
    private let lock = Mutex(())
    private let descriptor: Int32

    public init() {
        descriptor = 2
    }

    /// Writes to another descriptor (which stays owned by the caller); for tests.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func write(line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        lock.withLock { _ in writeFully(toDescriptor: descriptor, bytes) }
    }
}

/// Writes every byte unless the descriptor fails; there is nowhere left to report a
/// failure to log, so it is dropped.
private func writeFully(toDescriptor descriptor: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
