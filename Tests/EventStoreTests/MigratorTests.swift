import EventStore
import Foundation
import Postgres
import Testing
import TestSupport

@Suite("Migrations", .bounded)
struct MigratorTests {
    @Test("migrations apply once, in order, with their checksums recorded")
    func appliesOnce() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let connection = try db.connect()
        let migrations = try Migration.load(from: TestDatabase.migrationsDirectory)
        #expect(migrations.map(\.version) == migrations.map(\.version).sorted())
        let migrator = Migrator(migrations: migrations)
        #expect(try migrator.migrate(on: connection).count == migrations.count)
        #expect(try migrator.migrate(on: connection).isEmpty)
        #expect(try migrator.status(on: connection).isCurrent)
        let recorded = try connection.query("SELECT version, checksum FROM schema_migrations ORDER BY version").rows
        #expect(recorded.count == migrations.count)
        for (row, migration) in zip(recorded, migrations) {
            #expect(row.int(0) == migration.version)
            #expect(row.string(1) == migration.checksum)
        }
    }

    @Test("changing an applied migration's statements is an error, not a silent skip")
    func modifiedMigrationIsAnError() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let connection = try db.connect()
        var migrations = try Migration.load(from: TestDatabase.migrationsDirectory)
        try Migrator(migrations: migrations).migrate(on: connection)
        migrations[0] = Migration(version: migrations[0].version, name: migrations[0].name, sql: migrations[0].sql + "\nSELECT 1;  -- edited")
        do {
            try Migrator(migrations: migrations).migrate(on: connection)
            Issue.record("an edited migration was accepted")
        } catch let error as MigrationError {
            #expect(error.code == .modified)
            #expect(error.message.contains("0001_event_log.sql"))
        }
    }

    @Test("a failing migration leaves nothing behind and is not recorded")
    func failingMigrationIsAtomic() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let connection = try db.connect()
        var migrations = try Migration.load(from: TestDatabase.migrationsDirectory)
        migrations.append(Migration(version: 9999, name: "broken", sql: "CREATE TABLE half_done (x int); SELECT 1/0;"))
        #expect(throws: MigrationError.self) { try Migrator(migrations: migrations).migrate(on: connection) }
        #expect(try connection.query("SELECT to_regclass('half_done') IS NULL")[0].bool(0) == true)
        let status = try Migrator(migrations: migrations).status(on: connection)
        #expect(status.pending.map(\.version) == [9999])
    }

    @Test("a database with a migration this build does not know is an error")
    func unknownMigration() throws {
        let db = try TestDatabase.create()
        defer { db.drop() }
        let connection = try db.connect()
        try connection.query("INSERT INTO schema_migrations (version, name, checksum) VALUES (9998, 'future', 'x')")
        let migrations = try Migration.load(from: TestDatabase.migrationsDirectory)
        #expect(throws: MigrationError.self) { try Migrator(migrations: migrations).status(on: connection) }
    }

    @Test("rewording an applied migration's comments, or its blank lines and trailing spaces, is accepted")
    func commentEditIsAccepted() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let connection = try db.connect()
        var migrations = try Migration.load(from: TestDatabase.migrationsDirectory)
        try Migrator(migrations: migrations).migrate(on: connection)
        let original = migrations[0]
        let edited = "-- A comment reworded after the migration was applied.\n\n   -- an indented one\n"
            + original.sql.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "  \r" }.joined(separator: "\n") + "\n\n\n"
        migrations[0] = Migration(version: original.version, name: original.name, sql: edited)
        #expect(migrations[0].checksum == original.checksum)
        #expect(try Migrator(migrations: migrations).status(on: connection).isCurrent)
        #expect(try Migrator(migrations: migrations).migrate(on: connection).isEmpty)
    }

    @Test("the checksum covers the statements: comment lines and blank lines go; indentation, end-of-line and block comments stay")
    func statementsOfAFile() {
        func statements(_ sql: String) -> String { String(decoding: Migration.statements(of: sql), as: UTF8.self) }
        #expect(statements("-- why\nCREATE TABLE t (x int);\n\n  -- more\n\tSELECT 1;   \r\n") == "CREATE TABLE t (x int);\n\tSELECT 1;")
        #expect(statements("SELECT 1;  -- kept") == "SELECT 1;  -- kept")
        #expect(statements("/* kept */ SELECT 1;") == "/* kept */ SELECT 1;")
        #expect(statements("-\n- not a comment") == "-\n- not a comment")
        #expect(statements("SELECT 1;") != statements("  SELECT 1;"))
        #expect(statements("") == "" && statements("-- only a comment\n\n") == "")
    }

    @Test("each migration's statements are still those of the file whose whole-file checksum databases recorded before")
    func legacyTableMatchesTheFiles() throws {
        let migrations = try Migration.load(from: TestDatabase.migrationsDirectory)
        for (version, entry) in LegacyMigrationChecksums.byVersion {
            let file = try #require(migrations.first { $0.version == version }, "no migration \(version)")
            #expect(file.checksum == entry.statements, "\(file.name): its statements changed, not only its comments")
            #expect(LegacyMigrationChecksums.accepts(entry.wholeFile, for: file))
        }
    }

    @Test("a database that recorded whole-file checksums is accepted as it is by a status check, and migrate rewrites them")
    func legacyChecksumsAreUpgraded() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let connection = try db.connect()
        let migrations = try Migration.load(from: TestDatabase.migrationsDirectory)
        try Migrator(migrations: migrations).migrate(on: connection)
        for (version, entry) in LegacyMigrationChecksums.byVersion {
            try connection.query("UPDATE schema_migrations SET checksum = $1 WHERE version = $2", [entry.wholeFile, version])
        }
        func recorded() throws -> [Int: String] {
            Dictionary(uniqueKeysWithValues: try connection.query("SELECT version, checksum FROM schema_migrations").rows.map {
                (Int(try $0.requireInt64(0)), try $0.requireString(1))
            })
        }
        let legacy = try recorded()

        let status = try Migrator(migrations: migrations).status(on: connection)
        #expect(status.isCurrent)
        #expect(status.recordedWholeFile.map(\.version).sorted() == LegacyMigrationChecksums.byVersion.keys.sorted())
        #expect(try recorded() == legacy, "a status check writes nothing")

        var logged: [String] = []
        #expect(try Migrator(migrations: migrations).migrate(on: connection) { logged.append($0) }.isEmpty)
        #expect(logged.count == LegacyMigrationChecksums.byVersion.count)
        #expect(logged.first?.hasPrefix("recorded checksum of 0001_event_log.sql rewritten") == true)
        #expect(try recorded() == Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0.checksum) }))
        #expect(try Migrator(migrations: migrations).status(on: connection).recordedWholeFile.isEmpty)
    }

    @Test("a whole-file checksum recorded before does not excuse a file whose statements changed since")
    func legacyChecksumDoesNotExcuseAnEdit() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let connection = try db.connect()
        var migrations = try Migration.load(from: TestDatabase.migrationsDirectory)
        try Migrator(migrations: migrations).migrate(on: connection)
        let entry = try #require(LegacyMigrationChecksums.byVersion[1])
        try connection.query("UPDATE schema_migrations SET checksum = $1 WHERE version = 1", [entry.wholeFile])
        migrations[0] = Migration(version: 1, name: migrations[0].name, sql: migrations[0].sql + "\nSELECT 1;")
        for attempt in [{ _ = try Migrator(migrations: migrations).status(on: connection) },
                        { _ = try Migrator(migrations: migrations).migrate(on: connection) }] as [() throws -> Void] {
            do {
                try attempt()
                Issue.record("an edited migration was accepted on the strength of its old checksum")
            } catch let error as MigrationError {
                #expect(error.code == .modified)
            }
        }
        #expect(try connection.query("SELECT checksum FROM schema_migrations WHERE version = 1")[0].string(0) == entry.wholeFile)
    }
}
