import Postgres

/// Applies numbered migrations in order, each once, each in its own transaction together
/// with the row that records it and its checksum.
///
/// A file whose checksum differs from the recorded one is an error, never a silent skip:
/// the schema of a ledger must be reproducible from the files in the repository. The
/// checksum covers a file's statements, not its comments (`Migration.statements(of:)`); a
/// row recorded before it left comments out is accepted when the statements are the same
/// (`LegacyMigrationChecksums`), and `migrate` rewrites it.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(migrations: [Migration]) { self.migrations = migrations }

    /// What the database has compared with the files.
    public struct Status: Sendable, Equatable {
        public var applied: [Int]
        public var pending: [Migration]
        /// Applied migrations whose row has the whole-file checksum of before comments were
        /// left out (`LegacyMigrationChecksums`): accepted, and rewritten by `migrate`.
        public var recordedWholeFile: [Migration] = []
        public var isCurrent: Bool { pending.isEmpty }
    }

    /// Checks applied migrations against the files and lists the pending ones.
    public func status(on connection: PostgresConnection) throws -> Status {
        let exists = try connection.query("SELECT to_regclass('public.schema_migrations') IS NOT NULL")[0].bool(0) ?? false
        guard exists else { return Status(applied: [], pending: migrations) }
        let rows = try connection.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version")
        var applied: [Int] = []
        var recordedWholeFile: [Migration] = []
        for row in rows.rows {
            let version = Int(try row.requireInt64(0))
            let checksum = try row.requireString(2)
            guard let file = migrations.first(where: { $0.version == version }) else {
                throw MigrationError(code: .unknown, message: "the database has migration \(version) (\(row.string(1) ?? "?")), which this build does not have")
            }
            if file.checksum != checksum {
                guard LegacyMigrationChecksums.accepts(checksum, for: file) else {
                    throw MigrationError(code: .modified, message: "\(String(format: "%04d", version))_\(file.name).sql changed after it was applied (recorded sha256 \(checksum), file sha256 \(file.checksum), comments aside); add a new migration instead")
                }
                recordedWholeFile.append(file)
            }
            applied.append(version)
        }
        return Status(applied: applied, pending: migrations.filter { !applied.contains($0.version) }, recordedWholeFile: recordedWholeFile)
    }

    /// Applies every pending migration; returns those applied. Serialised across processes
    /// by an advisory lock, so two deploys migrating at once do not collide. Rows recorded
    /// with a whole-file checksum of before (`Status.recordedWholeFile`) get the file's
    /// checksum first, in one transaction.
    @discardableResult
    public func migrate(on connection: PostgresConnection, log: (String) -> Void = { _ in }) throws -> [Migration] {
        try connection.query("SELECT pg_advisory_lock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.migrate])
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1, $2)", [AdvisoryLock.namespace, AdvisoryLock.migrate]) }
        try connection.query("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    integer PRIMARY KEY,
                name       text NOT NULL,
                checksum   text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        let status = try self.status(on: connection)
        if !status.recordedWholeFile.isEmpty {
            try connection.transaction { tx in
                for migration in status.recordedWholeFile {
                    try tx.query("UPDATE schema_migrations SET checksum = $1 WHERE version = $2 AND checksum = $3",
                                 [migration.checksum, migration.version, LegacyMigrationChecksums.byVersion[migration.version]?.wholeFile ?? ""])
                }
            }
            for migration in status.recordedWholeFile {
                log("recorded checksum of \(String(format: "%04d", migration.version))_\(migration.name).sql rewritten: it covers the statements, not the comments")
            }
        }
        let pending = status.pending
        for migration in pending {
            do {
                try connection.transaction { tx in
                    try tx.query(migration.sql)
                    try tx.query("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                                 [migration.version, migration.name, migration.checksum])
                }
            } catch {
                throw MigrationError(code: .failed, message: "\(migration.version)_\(migration.name).sql: \(error)")
            }
            log("applied \(String(format: "%04d", migration.version))_\(migration.name).sql")
        }
        return pending
    }
}

import Foundation
