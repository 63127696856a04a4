import AuditModel
import Foundation
import PostgresClient

/// A numbered SQL file from `Migrations/`: `0001_initial.sql` is version 1, name `initial`.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String
    public var checksum: String { Digest.sha256Hex(Array(sql.utf8)) }
    public init(version: Int, name: String, sql: String) { self.version = version; self.name = name; self.sql = sql }
    public var fileName: String { String(format: "%04d_%@.sql", version, name) }
}

public enum MigrationError: Error, CustomStringConvertible, Equatable {
    case directoryNotFound(String)
    case badFileName(String)
    case duplicateVersion(Int, String, String)
    case unreadable(String)
    case edited(String)
    case unknownVersionApplied(Int)

    public var description: String {
        switch self {
        case .directoryNotFound(let path):
            return "migrations folder \(path) not found (pass --migrations DIR or set A11Y_AUDIT_MIGRATIONS)"
        case .badFileName(let name):
            return "migration file \(name) is not named NNNN_name.sql"
        case .duplicateVersion(let version, let first, let second):
            return "migrations \(first) and \(second) share version \(version)"
        case .unreadable(let path):
            return "cannot read migration \(path) as UTF-8 text"
        case .edited(let file):
            return "migration \(file) was edited after it was applied: add a new migration instead"
        case .unknownVersionApplied(let version):
            return "the database has migration \(version) applied, which this build does not know: run a newer a11y-audit"
        }
    }
}

public enum Migrations {
    /// Reads `NNNN_name.sql` files in version order; anything else in the folder is an error, so
    /// a misnamed migration is never skipped silently.
    public static func load(from directory: String) throws -> [Migration] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            throw MigrationError.directoryNotFound(directory)
        }
        var byVersion: [Int: Migration] = [:]
        for file in names.sorted() where !file.hasPrefix(".") {
            guard file.hasSuffix(".sql"), let underscore = file.firstIndex(of: "_"),
                  let version = Int(file[..<underscore]), file[..<underscore].count == 4 else {
                throw MigrationError.badFileName(file)
            }
            let name = String(file[file.index(after: underscore)...].dropLast(4))
            guard let data = FileManager.default.contents(atPath: directory + "/" + file),
                  let sql = String(data: data, encoding: .utf8) else {
                throw MigrationError.unreadable(directory + "/" + file)
            }
            if let existing = byVersion[version] {
                throw MigrationError.duplicateVersion(version, existing.fileName, file)
            }
            byVersion[version] = Migration(version: version, name: name, sql: sql)
        }
        return byVersion.values.sorted { $0.version < $1.version }
    }

    /// Where the migrations are: `A11Y_AUDIT_MIGRATIONS`, else a `Migrations` folder beside the
    /// executable or above it (a build tree), else the installed copy.
    public static func defaultDirectory(executable: String = CommandLine.arguments.first ?? "") -> String {
        if let override = ProcessInfo.processInfo.environment["A11Y_AUDIT_MIGRATIONS"], !override.isEmpty { return override }
        var directory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent("Migrations")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("0001_initial.sql").path) {
                return candidate.path
            }
            directory = directory.deletingLastPathComponent()
        }
        return "/usr/share/a11y-audit/Migrations"
    }
}

/// Applies migrations in order, each in its own transaction, recorded in `schema_migrations`.
/// A session advisory lock serialises concurrent `migrate` runs: the second waits, then finds
/// nothing left to do.
public struct Migrator {
    /// An arbitrary constant: the advisory lock key of "a11y-audit migrate".
    static let lockKey = 0x0A11_7A0D

    let connection: PostgresConnection

    public init(connection: PostgresConnection) { self.connection = connection }

    /// Returns the migrations it applied (empty when the schema was current).
    @discardableResult
    public func migrate(_ migrations: [Migration]) throws -> [Migration] {
        try connection.query("SELECT pg_advisory_lock($1)", [.int(Self.lockKey)], purpose: "take the migration lock")
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1)", [.int(Self.lockKey)], purpose: "release the migration lock") }
        try connection.query("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    integer PRIMARY KEY,
                name       text NOT NULL,
                checksum   text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now())
            """, purpose: "create the schema_migrations table")
        let applied = try connection.query("SELECT version, checksum FROM schema_migrations ORDER BY version",
                                           purpose: "read applied migrations")
        var appliedChecksums: [Int: String] = [:]
        for row in applied {
            if let version = row.int("version") { appliedChecksums[version] = row.string("checksum") ?? "" }
        }
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        for (version, checksum) in appliedChecksums.sorted(by: { $0.key < $1.key }) {
            guard let migration = known[version] else { throw MigrationError.unknownVersionApplied(version) }
            if migration.checksum != checksum { throw MigrationError.edited(migration.fileName) }
        }
        var newlyApplied: [Migration] = []
        for migration in migrations where appliedChecksums[migration.version] == nil {
            try connection.transaction(purpose: "apply migration \(migration.fileName)") { connection in
                try connection.executeScript(migration.sql, purpose: "apply migration \(migration.fileName)")
                try connection.query("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                                     [.int(migration.version), .text(migration.name), .text(migration.checksum)],
                                     purpose: "record migration \(migration.fileName)")
            }
            newlyApplied.append(migration)
        }
        return newlyApplied
    }
}
