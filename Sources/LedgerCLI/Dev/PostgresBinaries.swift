import Foundation

/// The PostgreSQL server programs a local cluster needs.
///
/// Debian and Ubuntu keep them off PATH, in /usr/lib/postgresql/<major>/bin, so that several
/// majors can sit side by side; Homebrew and source builds put them on PATH. The search
/// order is: the major an existing cluster was created with (its files only open with that
/// major), the highest major under /usr/lib/postgresql, `pg_config --bindir`, then PATH.
struct PostgresBinaries: Sendable {
    /// The folder holding both programs.
    var directory: String
    var initdb: String { directory + "/initdb" }
    var pgCtl: String { directory + "/pg_ctl" }
    var pgBasebackup: String { directory + "/pg_basebackup" }

    /// Finds the programs; `majorVersion` is the content of an existing cluster's PG_VERSION.
    static func locate(majorVersion: String?) throws -> PostgresBinaries {
        var tried: [String] = []
        func usable(_ directory: String) -> PostgresBinaries? {
            tried.append(directory)
            let manager = FileManager.default
            guard manager.isExecutableFile(atPath: directory + "/initdb"),
                  manager.isExecutableFile(atPath: directory + "/pg_ctl") else { return nil }
            return PostgresBinaries(directory: directory)
        }

        let debianRoot = "/usr/lib/postgresql"
        if let majorVersion, let found = usable("\(debianRoot)/\(majorVersion)/bin") { return found }
        let majors = ((try? FileManager.default.contentsOfDirectory(atPath: debianRoot)) ?? [])
            .compactMap { name in Double(name).map { (name, $0) } }
            .sorted { $0.1 > $1.1 }
        for (name, _) in majors {
            if let found = usable("\(debianRoot)/\(name)/bin") { return found }
        }
        if let pgConfig = HelperProcess.find("pg_config"),
           let outcome = try? HelperProcess().run(pgConfig, ["--bindir"], in: "/"), outcome.succeeded,
           let found = usable(outcome.output) {
            return found
        }
        if let pgCtl = HelperProcess.find("pg_ctl"),
           let found = usable((pgCtl as NSString).deletingLastPathComponent) {
            return found
        }
        throw EmbeddedPostgresError(code: .binariesNotFound, message:
            "no PostgreSQL server programs (initdb, pg_ctl) found; looked in \(tried.isEmpty ? "nothing" : tried.joined(separator: ", ")), " +
            "pg_config --bindir and PATH. Install them with scripts/install-deps.sh (Debian: apt-get install postgresql)")
    }
}
