import ArchiveFetch
import AuditModel
import AuditPipeline
import AuditScanner
import AuditStore
import DatabaseTestSupport
import Foundation
import HTTPServer
import OrgModel
import PostgresClient
import Testing
import Synchronization

/// A scratch folder with repositories, their archives and an org config.
final class Workspace: Sendable {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-pipeline-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: root + "/work", withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var workDirectory: String { root + "/work" }

    /// Copies the sample app into `name/` and returns its folder.
    func sampleRepository(_ name: String) throws -> String {
        let target = root + "/" + name
        try FileManager.default.copyItem(atPath: TestDatabase.repositoryRoot + "/Tests/Fixtures/SampleApp", toPath: target)
        return target
    }

    /// tar.gz of `folder` (with its folder name as the single top folder, as GitHub's are).
    func archive(_ folder: String, as name: String) throws -> String {
        let path = root + "/" + name
        try run("/bin/tar", ["-czf", path, "-C", (folder as NSString).deletingLastPathComponent, (folder as NSString).lastPathComponent])
        return path
    }

    func writeConfig(_ repositories: [(name: String, archive: String)], team: String = "Mobile", scheme: String = "file://") throws -> String {
        let config: [String: Any] = [
            "org": "acme",
            "teams": [["name": team, "owners": ["@acme/mobile"]], ["name": "Design", "owners": ["@acme/design"]]],
            "repositories": repositories.map { ["name": $0.name, "team": team, "archive": scheme + $0.archive] },
            "schedule": ["cron": "0 2 * * *", "timeZone": "UTC"],
            "limits": ["maxAttempts": 2],
        ]
        let path = root + "/org.json"
        try JSONSerialization.data(withJSONObject: config, options: [.prettyPrinted]).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs a Python program (Python's tarfile writes entries tar(1) refuses to).
    static func python(_ program: String, _ argument: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program, argument]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("python3 exited \(process.terminationStatus)") }
    }

    func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("\(executable) \(arguments) exited \(process.terminationStatus)") }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Workers in tests isolate their checks as `a11y-audit worker` does: a child of the built
/// executable per snapshot.
func workerOptions(_ database: TestDatabase, _ workspace: Workspace, concurrency: Int = 2, lease: Double = 10) -> WorkerOptions {
    var options = WorkerOptions(database: database.settings, name: "test-worker", concurrency: concurrency, mode: .untilIdle,
                                policy: QueuePolicy(leaseSeconds: lease, backoffBaseSeconds: 0.01, backoffMaxSeconds: 0.01),
                                pollInterval: 0.1, workDirectory: workspace.workDirectory, scanJobs: 2)
    options.isolation = ScanIsolation(executable: Executable.path)
    return options
}

func runWorker(_ database: TestDatabase, _ workspace: Workspace, concurrency: Int = 2) throws -> WorkerSummary {
    try Worker(options: workerOptions(database, workspace, concurrency: concurrency), source: FetchingArchiveSource(), log: .silent).run()
}

func scheduleNight(_ database: TestDatabase, config: String, date: String) throws -> Int {
    guard case .created(let run, _) = try Coordinator(configPath: config, database: database.settings, log: .silent)
        .scheduleNow(date: date) else { throw TestFailure("night \(date) was not created") }
    return run
}

func value(_ connection: PostgresConnection, _ sql: String, _ parameters: [PostgresValue] = []) throws -> String? {
    let rows = try connection.query(sql, parameters, purpose: "test query")
    return rows.columns.first.flatMap { rows.first?.string($0) }
}

@Suite(.serialized) struct WorkerTests {
    @Test func aNightlyRunAuditsEveryRepositoryAndStoresWhatScanFinds() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let app = try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "app.tar.gz")
            let config = try workspace.writeConfig([("acme/app", app), ("acme/app-copy", app)])
            let run = try scheduleNight(database, config: config, date: "2026-11-28")
            let summary = try runWorker(database, workspace)
            #expect(summary.succeeded == 2 && summary.failed == 0)

            let connection = try database.connect()
            #expect(try value(connection, "SELECT state FROM runs WHERE id = $1", [.int(run)]) == "succeeded")
            let direct = try Scanner(options: ScanOptions(jobs: 2)).scan(try ScanInput.archive(app, maxFileBytes: 2_000_000), root: "app")
            #expect(!direct.findings.isEmpty)
            let stored = try connection.query("""
                SELECT f.fingerprint FROM findings f JOIN repositories r ON r.id = f.repository_id
                WHERE r.name = 'acme/app' AND f.fixed_in_run IS NULL
                """, purpose: "read")
            #expect(Set(stored.compactMap { $0.string("fingerprint") }) == Set(direct.findings.map(\.fingerprint)))
            #expect(try value(connection, "SELECT sum(findings_open) FROM job_summaries WHERE run_id = $1", [.int(run)])
                    == String(direct.findings.count * 2))
            // Every finding belongs to the repository's team (no CODEOWNERS in the sample).
            #expect(try value(connection, """
                SELECT count(*) FROM findings f JOIN teams t ON t.id = f.team_id WHERE t.name = 'Mobile'
                """) == String(direct.findings.count * 2))
            // The app's platforms, from its Xcode targets, for the readiness pages.
            #expect(try value(connection, "SELECT array_to_string(platforms, ',') FROM repositories WHERE name = 'acme/app'")
                    == "ios,macos,visionos")
            let work = try FileManager.default.contentsOfDirectory(atPath: workspace.workDirectory)
            #expect(work.isEmpty, "per-job folders are removed: \(work)")
        }
    }

    @Test func theSecondNightParsesOnlyChangedFilesAndRecordsTheFix() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let folder = try workspace.sampleRepository("SampleApp")
            let config = try workspace.writeConfig([("acme/app", try workspace.archive(folder, as: "app.tar.gz"))])
            _ = try scheduleNight(database, config: config, date: "2026-11-28")
            _ = try runWorker(database, workspace)
            let connection = try database.connect()
            let firstOpen = Int(try value(connection, "SELECT count(*) FROM findings WHERE fixed_in_run IS NULL") ?? "") ?? 0

            // Fix one finding: drop a line marked with an expected finding from one file.
            let enumerator = FileManager.default.enumerator(atPath: folder)
            var edited: String?
            while let path = enumerator?.nextObject() as? String, edited == nil {
                guard path.hasSuffix(".swift"), !path.contains("Pods/") else { continue }
                let text = try String(contentsOfFile: folder + "/" + path, encoding: .utf8)
                var lines = text.components(separatedBy: "\n")
                guard let index = lines.firstIndex(where: { $0.contains("// expect: text-below-minimum-size") }) else { continue }
                lines.remove(at: index)
                try lines.joined(separator: "\n").write(toFile: folder + "/" + path, atomically: true, encoding: .utf8)
                edited = path
            }
            try #require(edited != nil, "the sample app marks a text-below-minimum-size finding")
            _ = try workspace.archive(folder, as: "app.tar.gz")
            let night2 = try scheduleNight(database, config: config, date: "2026-11-29")
            _ = try runWorker(database, workspace)
            let summary = try #require(try connection.query("""
                SELECT files_scanned, files_parsed, cache_hits, findings_fixed, findings_new FROM job_summaries WHERE run_id = $1
                """, [.int(night2)], purpose: "read").first)
            #expect(summary.int("files_parsed") == 1, "only the edited file is parsed again")
            #expect(summary.int("cache_hits") == (summary.int("files_scanned") ?? 0) - 1)
            #expect((summary.int("findings_fixed") ?? 0) >= 1)
            let secondOpen = Int(try value(connection, "SELECT count(*) FROM findings WHERE fixed_in_run IS NULL") ?? "") ?? 0
            #expect(secondOpen == firstOpen - (summary.int("findings_fixed") ?? 0) + (summary.int("findings_new") ?? 0))
            try RollupConsistency.check(connection)
        }
    }

    @Test func brokenArchivesFailTheirJobWithAReasonAndTheRestCompletes() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let good = try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "good.tar.gz")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
            let truncated = workspace.root + "/truncated.tar.gz"
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
            let text = workspace.root + "/notes.tar.gz"
            try Data("this is not an archive\n".utf8).write(to: URL(fileURLWithPath: text))
            let config = try workspace.writeConfig([("acme/good", good), ("acme/truncated", truncated), ("acme/text", text),
                                                    ("acme/missing", workspace.root + "/missing.tar.gz")])
            let run = try scheduleNight(database, config: config, date: "2026-11-28")
            let summary = try runWorker(database, workspace)
            #expect(summary.succeeded == 1 && summary.failed == 3)
            let connection = try database.connect()
            let jobs = try connection.query("""
                SELECT r.name, j.state, j.attempt, j.last_error FROM jobs j JOIN repositories r ON r.id = j.repository_id
                """, purpose: "read")
            for row in jobs {
                let name = row.string("name") ?? ""
                if name == "acme/good" {
                    #expect(row.string("state") == "succeeded")
                } else {
                    #expect(row.string("state") == "dead", "\(name)")
                    #expect(row.int("attempt") == 1, "an input error is not retried: \(name)")
                    let error = row.string("last_error") ?? ""
                    #expect(error.contains(".tar.gz"), "the reason names the archive: \(error)")
                }
            }
            #expect(try value(connection, "SELECT state FROM runs WHERE id = $1", [.int(run)]) == "failed")
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.workDirectory).isEmpty)
        }
    }

    @Test func concurrentWorkerProcessesShareTheRunWithoutDoubleWork() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let app = try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "app.tar.gz")
            let config = try workspace.writeConfig((0..<12).map { ("acme/app-\($0)", app) })
            let run = try scheduleNight(database, config: config, date: "2026-11-28")
            let summaries = LockedList<WorkerSummary>()
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                var options = workerOptions(database, workspace)
                options.name = "worker-\(index)"
                if let summary = try? Worker(options: options, source: FetchingArchiveSource(), log: .silent).run() { summaries.append(summary) }
            }
            #expect(summaries.values.map(\.succeeded).reduce(0, +) == 12)
            let connection = try database.connect()
            #expect(try value(connection, "SELECT count(*) FROM job_summaries WHERE run_id = $1", [.int(run)]) == "12")
            #expect(try value(connection, "SELECT max(attempt) FROM jobs") == "1")
            #expect(try value(connection, "SELECT state FROM runs WHERE id = $1", [.int(run)]) == "succeeded")
        }
    }
}

/// The worker end to end over real HTTP on loopback: libcurl fetching from our own server.
@Suite(.serialized) struct WorkerFetchTests {
    @Test func archivesOverHTTPAreRetriedThroughAnOutageAndHostileOnesAreRefused() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let app = try Data(contentsOf: URL(fileURLWithPath: try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "app.tar.gz")))
            // A tar.gz whose entry climbs out of the tree.
            let hostile = workspace.root + "/hostile.tar.gz"
            try Workspace.python("""
                import io, sys, tarfile
                with tarfile.open(sys.argv[1], "w:gz") as archive:
                    data = b"import SwiftUI\\n"
                    info = tarfile.TarInfo("repo/../../escaped.swift"); info.size = len(data)
                    archive.addfile(info, io.BytesIO(data))
                """, hostile)
            let hostileBytes = try Data(contentsOf: URL(fileURLWithPath: hostile))
            let flaky = Counter()
            let server = try HTTPServer { request in
                switch request.path {
                case "/app.tar.gz":
                    flaky.add(1)
                    // The first two requests meet an outage.
                    return flaky.value <= 2 ? HTTPResponse.text("upstream down", status: 503) : HTTPResponse(status: 200, body: [UInt8](app))
                case "/hostile.tar.gz": return HTTPResponse(status: 200, body: [UInt8](hostileBytes))
                default: return HTTPResponse.text("not found", status: 404)
                }
            }
            defer { server.stop() }
            let config = try workspace.writeConfig([("acme/app", "\(server.baseURL)/app.tar.gz"), ("acme/hostile", "\(server.baseURL)/hostile.tar.gz"),
                                                    ("acme/gone", "\(server.baseURL)/gone.tar.gz")], scheme: "")
            _ = try scheduleNight(database, config: config, date: "2026-11-30")
            var fetch = FetchOptions()
            fetch.retryBaseDelaySeconds = 0.01
            fetch.retryMaxDelaySeconds = 0.02
            let summary = try Worker(options: workerOptions(database, workspace, concurrency: 1),
                                     source: FetchingArchiveSource(options: fetch), log: .silent).run()
            #expect(summary.succeeded == 1 && summary.failed == 2)
            let connection = try database.connect()
            let rows = try connection.query("""
                SELECT r.name, j.state, j.attempt, j.last_error FROM jobs j JOIN repositories r ON r.id = j.repository_id ORDER BY r.name
                """, purpose: "read")
            let byName = Dictionary(uniqueKeysWithValues: rows.map { ($0.string("name") ?? "", $0) })
            #expect(byName["acme/app"]?.string("state") == "succeeded" && byName["acme/app"]?.int("attempt") == 1,
                    "the fetcher rode out the 503s within one attempt")
            #expect(flaky.value == 3)
            #expect(byName["acme/hostile"]?.string("state") == "dead")
            #expect(byName["acme/hostile"]?.string("last_error")?.contains("escaped.swift") == true)
            #expect(byName["acme/gone"]?.string("state") == "dead")
            #expect(byName["acme/gone"]?.string("last_error")?.contains("404") == true)
            #expect(!FileManager.default.fileExists(atPath: workspace.root + "/escaped.swift"))
            #expect(!FileManager.default.fileExists(atPath: (workspace.workDirectory as NSString).deletingLastPathComponent + "/escaped.swift"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.workDirectory).isEmpty)
        }
    }
}

final class Counter: Sendable {
    private let total = Mutex(0)
    func add(_ amount: Int) { total.withLock { $0 += amount } }
    var value: Int { total.withLock { $0 } }
}
