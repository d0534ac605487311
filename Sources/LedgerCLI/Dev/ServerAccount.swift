import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The unprivileged account that runs a local PostgreSQL server when `ledger` itself runs as
/// root (as CI and containers do): `initdb` and `postgres` refuse to run as root, because a
/// server compromised through SQL would otherwise own the machine.
struct ServerAccount: Sendable, Equatable {
    var name: String
    var uid: UInt32
    var gid: UInt32
    /// Every group the account is in, its primary group included.
    var groups: [UInt32]

    /// The account the Debian and Homebrew packages create for the server.
    static let preferredName = "postgres"
    /// The account created when the preferred one does not exist (PostgreSQL built from source).
    static let dedicatedName = "ledger-postgres"

    /// Whether this process runs as root and therefore must switch accounts.
    static var processIsRoot: Bool { geteuid() == 0 }

    static func named(_ name: String) -> ServerAccount? {
        withPasswordEntry { entry, buffer, size, result in getpwnam_r(name, entry, buffer, size, result) }
    }

    static func withUID(_ uid: UInt32) -> ServerAccount? {
        withPasswordEntry { entry, buffer, size, result in getpwuid_r(uid_t(uid), entry, buffer, size, result) }
    }

    /// The account that should own a new cluster: `postgres`, else `ledger-postgres`, else
    /// nil when neither exists yet (`ensureDedicated()` creates the latter).
    static func preferred() -> ServerAccount? {
        named(preferredName) ?? named(dedicatedName)
    }

    /// Creates `ledger-postgres` (a system account without home or login shell) and returns it.
    static func ensureDedicated() throws -> ServerAccount {
        if let existing = named(dedicatedName) { return existing }
        guard let useradd = HelperProcess.find("useradd", alsoIn: ["/usr/sbin", "/sbin"]) else {
            throw EmbeddedPostgresError(code: .accountUnavailable, message:
                "running as root, there is no `\(preferredName)` account to run PostgreSQL as, and no useradd to create `\(dedicatedName)`")
        }
        let nologin = ["/usr/sbin/nologin", "/sbin/nologin"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/bin/false"
        let outcome = try HelperProcess().run(useradd, [
            "--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
            "--shell", nologin, "--comment", "ledger local PostgreSQL", dedicatedName,
        ], in: "/")
        guard outcome.succeeded, let created = named(dedicatedName) else {
            throw EmbeddedPostgresError(code: .accountUnavailable,
                message: "could not create the `\(dedicatedName)` account to run PostgreSQL as: \(outcome.output)")
        }
        return created
    }

    /// Whether the account may enter every existing directory on the way to `path`
    /// (`path` itself excluded: the cluster directory is handed to the account anyway).
    ///
    /// Missing directories are counted as enterable because they are created 0755. The check
    /// reads mode bits the way the kernel does (owner bits for the owner, group bits for a
    /// member, other bits for the rest); ACLs are not consulted.
    func canTraverse(ancestorsOf path: String) -> Bool {
        var prefix = ""
        let components = path.split(separator: "/").dropLast()
        for directory in ["/"] + components.map({ component -> String in
            prefix += "/" + component
            return prefix
        }) {
            var info = stat()
            guard stat(directory, &info) == 0 else { continue }
            let mode = UInt32(info.st_mode)
            let bit: UInt32
            if UInt32(info.st_uid) == uid {
                bit = UInt32(S_IXUSR)
            } else if groups.contains(UInt32(info.st_gid)) {
                bit = UInt32(S_IXGRP)
            } else {
                bit = UInt32(S_IXOTH)
            }
            if mode & bit == 0 { return false }
        }
        return true
    }

    private static func withPasswordEntry(
        _ lookup: (UnsafeMutablePointer<passwd>, UnsafeMutablePointer<CChar>, Int, UnsafeMutablePointer<UnsafeMutablePointer<passwd>?>) -> Int32
    ) -> ServerAccount? {
        var entry = passwd()
        var buffer = [CChar](repeating: 0, count: 16_384)
        var result: UnsafeMutablePointer<passwd>?
        let found: (String, UInt32, UInt32)? = buffer.withUnsafeMutableBufferPointer { bytes in
            guard lookup(&entry, bytes.baseAddress!, bytes.count, &result) == 0, result != nil,
                  let name = entry.pw_name else { return nil }
            return (String(cString: name), UInt32(entry.pw_uid), UInt32(entry.pw_gid))
        }
        guard let (name, uid, gid) = found else { return nil }
        return ServerAccount(name: name, uid: uid, gid: gid, groups: groupsOf(name, primary: gid))
    }

    private static func groupsOf(_ name: String, primary: UInt32) -> [UInt32] {
        #if os(Linux)
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, gid_t(primary), &groups, &count) == -1 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, gid_t(primary), &groups, &count) != -1 else { return [primary] }
        }
        return groups.prefix(Int(count)).map { UInt32($0) }
        #else
        // Supplementary groups only widen access; counting without them at worst moves a
        // cluster to the shared location when it did not strictly need to.
        return [primary]
        #endif
    }
}
