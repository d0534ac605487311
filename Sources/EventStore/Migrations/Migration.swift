import Crypto
import Foundation

/// One numbered SQL file, `NNNN_name.sql`.
public struct Migration: Sendable, Equatable {
    public var version: Int
    public var name: String
    public var sql: String
    /// SHA-256 of the file's statements (`statements(of:)`), in hex: recorded when applied,
    /// checked ever after. Comments can be reworded after a migration was applied; its SQL
    /// cannot.
    public var checksum: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = Hex.encode(SHA256.hash(Self.statements(of: sql)))
    }

    /// The bytes a checksum covers: the file's lines (split at line feeds) without their
    /// trailing spaces, tabs and carriage returns, less the blank ones and the comment lines
    /// (whose first characters other than spaces and tabs are `--`), joined by line feeds.
    ///
    /// What still counts: indentation, a comment after a statement on the same line
    /// (`NULL;  -- why`), and `/* … */` comments. The rule reads lines, not SQL: a line
    /// inside a string literal that spans lines would be skipped, though it is data, if it
    /// were blank or began with `--`. No migration has such a literal (keep it so); inside a
    /// dollar-quoted PL/pgSQL body such a line is a comment of PL/pgSQL, rightly skipped.
    public static func statements(of sql: String) -> [UInt8] {
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), carriageReturn = UInt8(ascii: "\r"), dash = UInt8(ascii: "-")
        var kept: [UInt8] = []
        for var line in sql.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            while let last = line.last, last == space || last == tab || last == carriageReturn { line = line.dropLast() }
            guard let first = line.firstIndex(where: { $0 != space && $0 != tab }) else { continue }
            let text = line[first...]
            if text.count >= 2, text[text.startIndex] == dash, text[text.index(after: text.startIndex)] == dash { continue }
            if !kept.isEmpty { kept.append(UInt8(ascii: "\n")) }
            kept.append(contentsOf: line)
        }
        return kept
    }

    /// Reads every `NNNN_name.sql` of a folder, in version order; two files with the same
    /// number, or a file name that does not fit the pattern, is an error.
    public static func load(from directory: String) throws -> [Migration] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sql") }.sorted()
        var seen: [Int: String] = [:]
        var migrations: [Migration] = []
        for file in names {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"), let version = Int(stem[..<underscore]), version > 0 else {
                throw MigrationError(code: .badFileName, message: "\(file) does not match NNNN_name.sql")
            }
            if let other = seen[version] {
                throw MigrationError(code: .duplicateVersion, message: "\(file) and \(other) both have number \(version)")
            }
            seen[version] = file
            let sql = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
            migrations.append(Migration(version: version, name: String(stem[stem.index(after: underscore)...]), sql: sql))
        }
        return migrations.sorted { $0.version < $1.version }
    }

    /// Finds the migrations folder: `LEDGER_SQL_DIR` when given, else a `sql` folder in the
    /// working directory or above the executable (a build tree or an installed layout).
    public static func locateDirectory(configured: String?, executablePath: String = CommandLine.arguments.first ?? "") -> String? {
        let fm = FileManager.default
        func hasMigrations(_ path: String) -> Bool {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { return false }
            return ((try? fm.contentsOfDirectory(atPath: path)) ?? []).contains { $0.hasSuffix(".sql") }
        }
        if let configured { return hasMigrations(configured) ? configured : nil }
        let cwd = fm.currentDirectoryPath + "/sql"
        if hasMigrations(cwd) { return cwd }
        var dir = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("sql").path
            if hasMigrations(candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return nil
    }
}

/// A migration problem; nothing of the failing file is applied.
public struct MigrationError: Error, CustomStringConvertible, Sendable {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public var description: String { rawValue }
        public static let badFileName = Code(rawValue: "migration_bad_file_name")
        public static let duplicateVersion = Code(rawValue: "migration_duplicate_version")
        /// A file that was applied has changed since (in its statements, not only its comments).
        public static let modified = Code(rawValue: "migration_modified")
        /// The database has a migration this build does not know.
        public static let unknown = Code(rawValue: "migration_unknown")
        public static let failed = Code(rawValue: "migration_failed")
    }

    public var code: Code
    public var message: String
    public var description: String { "\(code): \(message)" }
}
