import Foundation

// Where a command finds what `ledger dev` left (LEDGER_DATA_DIR, default `.ledger`) and the
// migrations (LEDGER_SQL_DIR, default a `sql` folder), from any folder of the clone and with
// the executable found through PATH. Every miss names the settings and the places it
// looked at, so that nobody is blamed for a setting they never set.

extension LedgerEnvironment {
    /// The clone's root that holds `start`: the nearest folder from `start` upward with a
    /// `Package.swift` or a `.git`; nil outside any.
    ///
    /// The search for `.ledger` stops there: a service deployed outside a clone never
    /// picks up a development folder from somewhere above it (the profile turns
    /// development when one is found, docs/security.md).
    static func cloneRoot(from start: String) -> String? {
        var directory = URL(fileURLWithPath: start).standardizedFileURL
        while true {
            for marker in ["Package.swift", ".git"]
            where FileManager.default.fileExists(atPath: directory.appendingPathComponent(marker).path) {
                return directory.path
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }

    /// `start` and each folder above it, up to the clone's root that holds it; `start` alone
    /// outside a clone.
    static func foldersUpToCloneRoot(from start: String) -> [String] {
        let first = URL(fileURLWithPath: start).standardizedFileURL
        guard let root = cloneRoot(from: first.path) else { return [first.path] }
        var folders: [String] = []
        var directory = first
        while true {
            folders.append(directory.path)
            if directory.path == root { return folders }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return folders }
            directory = parent
        }
    }

    /// The working directory.
    static var workingDirectory: String { FileManager.default.currentDirectoryPath }

    /// Whether LEDGER_DATA_DIR was given (rather than defaulting to `.ledger`).
    var dataDirectoryIsSet: Bool { !(values[Setting.dataDirectory.name] ?? "").isEmpty }

    /// The folders a command looks for `ledger dev`'s files in, nearest first: LEDGER_DATA_DIR
    /// when set; else `.ledger` in the working directory and in each folder above it, up to
    /// the clone's root.
    func dataDirectoryCandidates() -> [String] {
        if dataDirectoryIsSet, let given = string(.dataDirectory) {
            return [URL(fileURLWithPath: given).standardizedFileURL.path]
        }
        let name = Setting.dataDirectory.defaultValue ?? ".ledger"
        return Self.foldersUpToCloneRoot(from: Self.workingDirectory).map {
            URL(fileURLWithPath: $0).appendingPathComponent(name).standardizedFileURL.path
        }
    }

    /// The folder of `ledger dev`'s files a command uses: the first candidate that holds a
    /// `demo.json` (`ledger dev` writes it last), else the nearest candidate.
    func devDataDirectory() -> String {
        let candidates = dataDirectoryCandidates()
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/demo.json") } ?? candidates[0]
    }

    /// The folder `ledger dev` keeps its cluster and files in: LEDGER_DATA_DIR when set; else
    /// `.ledger` at the clone's root (where `make run` puts it), whichever folder of the clone
    /// it is started from; else `.ledger` in the working directory.
    func devCommandDataDirectory() -> String {
        if dataDirectoryIsSet, let given = string(.dataDirectory) {
            return URL(fileURLWithPath: given).standardizedFileURL.path
        }
        let base = Self.cloneRoot(from: Self.workingDirectory) ?? Self.workingDirectory
        return URL(fileURLWithPath: base).appendingPathComponent(Setting.dataDirectory.defaultValue ?? ".ledger").standardizedFileURL.path
    }

    /// Where the dev cluster was looked for, in words, for an error: the setting and the files.
    func devClusterSearchDescription() -> String {
        let files = dataDirectoryCandidates().map { $0 + "/demo.json" }.joined(separator: ", ")
        if dataDirectoryIsSet {
            return "no demo.json of `ledger dev` was found (LEDGER_DATA_DIR is \(string(.dataDirectory) ?? ""); looked at \(files))"
        }
        let where_ = Self.cloneRoot(from: Self.workingDirectory) == nil
            ? "the working directory, which is in no clone" : "the working directory and the folders above it, up to the clone's root"
        return "no demo.json of `ledger dev` was found (LEDGER_DATA_DIR is unset: looked for .ledger/demo.json in \(where_): \(files))"
    }

    // MARK: - The executable

    /// The running executable's real path (symbolic links resolved), however it was found:
    /// through PATH, a relative path or a link.
    static var executablePath: String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        if let path = Bundle.main.executablePath { return URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        return nil
    }

    /// The clone the executable was built in (`.build/…/ledger`), if it was; nil for an
    /// installed one.
    static var executableCloneRoot: String? {
        guard let executable = executablePath else { return nil }
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        guard let root = cloneRoot(from: folder), FileManager.default.fileExists(atPath: root + "/Package.swift") else { return nil }
        return root
    }

    // MARK: - The migrations

    /// The folders the migrations are looked for in when LEDGER_SQL_DIR is unset, nearest
    /// first: `sql` in the working directory and in each folder above it up to the clone's
    /// root; then beside the executable and above it (a build tree: `.build/release/ledger`
    /// in a clone), and `share/ledger/sql` of an installed layout (`bin/ledger`).
    static func migrationCandidates(workingDirectory: String = LedgerEnvironment.workingDirectory, executable: String? = LedgerEnvironment.executablePath) -> [String] {
        var candidates = foldersUpToCloneRoot(from: workingDirectory).map { $0 + "/sql" }
        if let executable {
            var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            let bin = directory
            for _ in 0..<6 {
                candidates.append(directory.appendingPathComponent("sql").path)
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
            candidates.append(bin.deletingLastPathComponent().appendingPathComponent("share/ledger/sql").path)
        }
        var seen: Set<String> = []
        return candidates.map { URL(fileURLWithPath: $0).standardizedFileURL.path }.filter { seen.insert($0).inserted }
    }

    /// Whether `path` is a folder with at least one `.sql` file.
    static func holdsMigrations(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return false }
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).contains { $0.hasSuffix(".sql") }
    }

    /// The migrations folder: LEDGER_SQL_DIR when set (an error when it holds none); else the
    /// first of `migrationCandidates` that holds `.sql` files; else an error naming the setting
    /// and every place looked at.
    func migrationsDirectory(workingDirectory: String = LedgerEnvironment.workingDirectory, executable: String? = LedgerEnvironment.executablePath) throws -> String {
        if let configured = string(.sqlDirectory) {
            guard Self.holdsMigrations(configured) else {
                throw ConfigurationError(setting: .sqlDirectory,
                    problem: "is \(configured), which is not a folder of NNNN_name.sql migrations: point it at the `sql` folder of the clone or of the release")
            }
            return configured
        }
        let candidates = Self.migrationCandidates(workingDirectory: workingDirectory, executable: executable)
        if let found = candidates.first(where: Self.holdsMigrations) { return found }
        throw ConfigurationError(setting: .sqlDirectory,
            problem: "is unset, and no `sql` folder of migrations was found in \(candidates.joined(separator: ", ")): run the command in the clone, or set LEDGER_SQL_DIR to the `sql` folder of the clone or of the release")
    }
}
