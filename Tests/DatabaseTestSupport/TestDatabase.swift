import AuditStore
import Foundation
import PostgresClient
import Synchronization

/// A fresh database on the test server (DATABASE_URL, started by Tests/run or .ci/run) for each
/// test, migrated with the repository's Migrations/, dropped afterwards.
public struct TestDatabase: Sendable {
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    public static let migrationsDirectory = repositoryRoot + "/Migrations"

    public static var serverSettings: ConnectionSettings {
        get throws {
            guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else {
                throw DatabaseError.connectionFailed(target: "(none)", reason: "DATABASE_URL is not set: run the tests with Tests/run, which starts a PostgreSQL server")
            }
            return ConnectionSettings(conninfo: url)
        }
    }

    public let name: String
    public let settings: ConnectionSettings

    /// Runs `body` with a new migrated database, and drops it afterwards whatever happens.
    public static func with<T>(migrated: Bool = true, _ body: (TestDatabase) throws -> T) throws -> T {
        let server = try serverSettings
        let name = "a11y_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let admin = try PostgresConnection(server)
        try admin.query("CREATE DATABASE \(name)", purpose: "create a test database")
        defer { _ = try? admin.query("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", purpose: "drop the test database") }
        let database = TestDatabase(name: String(name), settings: server.database(String(name)))
        if migrated {
            try Migrator(connection: database.connect()).migrate(try Migrations.load(from: migrationsDirectory))
        }
        return try body(database)
    }

    public func connect() throws -> PostgresConnection { try PostgresConnection(settings) }
}

/// A thread-safe list, for results gathered from several threads.
public final class LockedList<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    public init() {}
    public func append(_ item: Element) { items.withLock { $0.append(item) } }
    public var values: [Element] { items.withLock { $0 } }
}
