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

    @Test("changing an applied migration is an error, not a silent skip")
    func modifiedMigrationIsAnError() throws {
        let db = try TestDatabase.create(migrated: false)
        defer { db.drop() }
        let connection = try db.connect()
        var migrations = try Migration.load(from: TestDatabase.migrationsDirectory)
        try Migrator(migrations: migrations).migrate(on: connection)
        migrations[0] = Migration(version: migrations[0].version, name: migrations[0].name, sql: migrations[0].sql + "\n-- edited")
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
}
