import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `ledger dev` per data directory (docs/security.md): an exclusive `flock` on
/// `LEDGER_DATA_DIR/dev.lock`, held for the life of the process, with the holder's pid and
/// URL written in the file for the next one to quote. The kernel lets go of the lock when
/// the process ends, however it ends (kill -9 included), so a lock is never left behind;
/// the descriptor is close-on-exec, so the API and the projector do not inherit it.
final class DevInstanceLock {
    private let descriptor: Int32
    let path: String

    /// The running instance that holds the lock.
    struct Held: Error, CustomStringConvertible {
        var pid: String
        var url: String
        var path: String
        var description: String {
            "already running (pid \(pid)) at \(url), in this data directory (\(path)): stop it first (Ctrl-C in its terminal, or kill \(pid)), or give this one another LEDGER_DATA_DIR"
        }
    }

    /// Takes the lock, or throws `Held` naming the instance that has it; changes nothing then.
    init(directory: String) throws {
        path = directory + "/dev.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DevCommand.DevStartError(message: "cannot open \(path): \(String(cString: strerror(errno)))") }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            close(fd)
            let lines = text.split(separator: "\n").map(String.init)
            throw Held(pid: lines.first ?? "unknown", url: lines.count > 1 ? lines[1] : "(starting)", path: path)
        }
        descriptor = fd
        record(url: "(starting)")
    }

    /// Writes who holds the lock: this process, and the URL it serves.
    func record(url: String) {
        let text = "\(getpid())\n\(url)\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        close(descriptor)
    }
}
