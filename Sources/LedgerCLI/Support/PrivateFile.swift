import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file only its owner may read (0600) from its first byte: secrets, passwords and
/// `demo.json`. Written to a temporary file beside it, then renamed over it, so that no
/// reader ever sees it half written or readable by others, whatever the umask.
enum PrivateFile {
    struct WriteError: Error, CustomStringConvertible {
        var description: String
    }

    static func write(_ text: String, to path: String) throws(WriteError) {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw WriteError(description: "cannot write \(temporary)")
        }
        chmod(temporary, 0o600)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(description: "cannot write \(path): \(reason)")
        }
    }
}
