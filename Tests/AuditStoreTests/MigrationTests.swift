import AuditStore
import Foundation
import DatabaseTestSupport
import PostgresClient
import Testing
import Synchronization

@Suite struct MigrationTests {
    @Test func appliesEveryMigrationOnceAndRecordsIt() throws {
        try TestDatabase.with(migrated: false) { database in
            let migrations = try Migrations.load(from: TestDatabase.migrationsDirectory)
            #expect(migrations.first?.version == 1)
            let connection = try database.connect()
            let first = try Migrator(connection: connection).migrate(migrations)
            #expect(first.count == migrations.count)
            let second = try Migrator(connection: connection).migrate(migrations)
            #expect(second.isEmpty)
            let recorded = try connection.query("SELECT version, checksum FROM schema_migrations ORDER BY version", purpose: "read")
            #expect(recorded.map { $0.int("version") } == migrations.map(\.version))
            #expect(recorded.map { $0.string("checksum") } == migrations.map(\.checksum))
            let tables = try connection.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'", purpose: "read")
                .compactMap { $0.string("tablename") }
            for table in ["teams", "repositories", "runs", "jobs", "findings", "job_summaries", "job_summary_counts",
                          "webhook_deliveries", "pr_checks", "file_cache", "org_settings"] {
                #expect(tables.contains(table), "missing table \(table)")
            }
        }
    }

    @Test func concurrentMigrateCallsApplyEachMigrationExactlyOnce() throws {
        try TestDatabase.with(migrated: false) { database in
            let migrations = try Migrations.load(from: TestDatabase.migrationsDirectory)
            let applied = Counter()
            let errors = Counter()
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    let connection = try database.connect()
                    applied.add(try Migrator(connection: connection).migrate(migrations).count)
                } catch {
                    errors.add(1)
                }
            }
            #expect(errors.value == 0)
            #expect(applied.value == migrations.count)
        }
    }

    @Test func refusesAMigrationEditedAfterItWasApplied() throws {
        try TestDatabase.with { database in
            var migrations = try Migrations.load(from: TestDatabase.migrationsDirectory)
            let original = migrations[0]
            migrations[0] = Migration(version: original.version, name: original.name, sql: original.sql + "\n-- edited\n")
            #expect(throws: MigrationError.edited(original.fileName)) {
                try Migrator(connection: try database.connect()).migrate(migrations)
            }
        }
    }

    @Test func rejectsMisnamedMigrationFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "SELECT 1;".write(toFile: directory + "/0001_first.sql", atomically: true, encoding: .utf8)
        try "SELECT 2;".write(toFile: directory + "/2_second.sql", atomically: true, encoding: .utf8)
        #expect(throws: MigrationError.badFileName("2_second.sql")) { try Migrations.load(from: directory) }
    }

    @Test func aFailingMigrationLeavesNothingBehind() throws {
        try TestDatabase.with(migrated: false) { database in
            let broken = [Migration(version: 1, name: "broken", sql: "CREATE TABLE half (id int); SELECT * FROM no_such_table;")]
            let connection = try database.connect()
            #expect(throws: DatabaseError.self) { try Migrator(connection: connection).migrate(broken) }
            let half = try connection.query("SELECT to_regclass('half') AS t", purpose: "read").first?.string("t")
            #expect(half == nil)
            let recorded = try connection.query("SELECT count(*) AS n FROM schema_migrations", purpose: "read").first?.int("n")
            #expect(recorded == 0)
        }
    }
}

final class Counter: Sendable {
    private let total = Mutex(0)
    func add(_ amount: Int) { total.withLock { $0 += amount } }
    var value: Int { total.withLock { $0 } }
}
