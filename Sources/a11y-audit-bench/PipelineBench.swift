import AuditModel
import AuditStore
import Dashboard
import HistorySimulation
import Foundation
import Synchronization
import PostgresClient

// Pipeline benchmarks against the PostgreSQL server DATABASE_URL names (each run creates and
// drops its own database):
//   --only queue   claim+complete throughput of JobQueue with 1, 4 and 16 workers, side by side
//                  with pgbench running the same SQL over the same protocol (extended).
//   --only org     an organisation of generated repositories audited end to end by two worker
//                  processes, then a second night with 1% of the files changed.

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum PipelineBench {
    static func withDatabase<T>(_ label: String, server: ConnectionSettings = .fromEnvironment(),
                                _ body: (ConnectionSettings) throws -> T) throws -> T {
        let name = "a11y_bench_\(label)_\(getpid())"
        let admin = try PostgresConnection(server)
        try QueueMeasurements.ScratchDatabase.create(name, on: admin)
        defer { try? QueueMeasurements.ScratchDatabase.drop(name, on: admin) }
        let settings = server.database(name)
        let migrations = try Migrations.load(from: Migrations.defaultDirectory())
        try Migrator(connection: PostgresConnection(settings)).migrate(migrations)
        return try body(settings)
    }

    // MARK: Queue

    static func queue(rounds: Int) throws {
        let jobsPerWorker = 400
        try withDatabase("queue") { settings in
            let setup = QueueMeasurements(connection: try PostgresConnection(settings))
            let repository = try setup.addRepository(org: "bench")
            let script = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-queue-\(getpid()).pgbench").path
            try QueueMeasurements.pgbenchScript.write(toFile: script, atomically: true, encoding: .utf8)
            defer { unlink(script) }
            var rows: [String] = []
            for workers in [1, 4, 16] {
                var ours: [Double] = [], raw: [Double] = []
                for round in 0..<rounds {
                    // Alternate which side goes first, so neither always meets a warmer server.
                    for side in (round % 2 == 0 ? [0, 1] : [1, 0]) {
                        try setup.refill(jobs: workers * jobsPerWorker, repositoryID: repository)
                        if side == 0 {
                            ours.append(try ourThroughput(settings, workers: workers, jobs: workers * jobsPerWorker))
                        } else {
                            raw.append(try pgbenchThroughput(settings, script: script, workers: workers, perWorker: jobsPerWorker))
                        }
                    }
                }
                let best = (ours.max() ?? 0, raw.max() ?? 0)
                rows.append("| \(workers) | \(Int(best.0)) | \(Int(best.1)) | \(String(format: "%.0f%%", best.0 / max(best.1, 1) * 100)) |")
            }
            print("""
                Queue claim+complete, \(jobsPerWorker) jobs per worker, best of \(rounds) rounds (jobs/s):

                | workers | JobQueue (a11y-audit) | pgbench, same SQL | ours / raw |
                |---:|---:|---:|---:|
                \(rows.joined(separator: "\n"))
                """)
        }
    }

    /// Each worker thread opens its own connection (a connection is used by one thread only),
    /// inside the timed span: a loopback connection costs a few milliseconds against seconds.
    static func ourThroughput(_ settings: ConnectionSettings, workers: Int, jobs: Int) throws -> Double {
        let done = Counter()
        let started = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: workers) { index in
            guard let connection = try? PostgresConnection(settings) else { return }
            let queue = JobQueue(connection: connection)
            while let job = try? queue.claim(worker: "bench-\(index)") {
                if (try? queue.complete(job) { _ in }) == .completed { done.add() }
            }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard done.value == jobs else { throw BenchFailure("completed \(done.value) of \(jobs) jobs") }
        return Double(jobs) / elapsed
    }

    static func pgbenchThroughput(_ settings: ConnectionSettings, script: String, workers: Int, perWorker: Int) throws -> Double {
        guard let pgbench = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
            .sorted().last.map({ "/usr/lib/postgresql/\($0)/bin/pgbench" }) else { throw BenchFailure("pgbench not found") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pgbench)
        process.arguments = ["-n", "-M", "extended", "-c", String(workers), "-j", String(workers), "-t", String(perWorker),
                             "-f", script, settings.conninfo]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
              let tps = Double(line.dropFirst(6).prefix { $0 != " " }) else {
            throw BenchFailure("pgbench failed: \(text)")
        }
        return tps
    }
}

final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

// MARK: Organisation

extension PipelineBench {
    static func organisation(repositories: Int, filesPerRepository: Int) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("a11y-audit").path
        guard FileManager.default.isExecutableFile(atPath: binary) else { throw BenchFailure("\(binary) not built") }
        let root = try temporaryDirectory("org")
        defer { try? FileManager.default.removeItem(at: root) }
        try withDatabase("org") { settings in
            var configRepositories: [[String: String]] = []
            var swiftFiles: [(repository: Int, path: String)] = []
            for index in 0..<repositories {
                let folder = root.appendingPathComponent("repo-\(index)")
                var generator = CorpusGenerator(seed: UInt64(index + 1), colorSets: 4)
                _ = try generator.write(to: folder, files: filesPerRepository)
                try archive(folder, repository: index, root: root)
                configRepositories.append(["name": "bench/repo-\(index)", "team": index % 4 == 0 ? "Design" : "Apps",
                                           "archive": "file://" + root.appendingPathComponent("repo-\(index).tar.gz").path])
                let enumerator = FileManager.default.enumerator(atPath: folder.path)
                while let path = enumerator?.nextObject() as? String {
                    if path.hasSuffix(".swift") { swiftFiles.append((index, folder.appendingPathComponent(path).path)) }
                }
            }
            let config: [String: Any] = ["org": "bench", "teams": [["name": "Apps"], ["name": "Design"]],
                                         "repositories": configRepositories, "limits": ["maxAttempts": 1]]
            let configPath = root.appendingPathComponent("org.json").path
            try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: configPath))
            let environment = ProcessInfo.processInfo.environment.merging(["DATABASE_URL": settings.conninfo]) { $1 }

            let first = try night(binary, config: configPath, date: "2026-01-01", environment: environment, settings: settings)
            // 1% of the Swift files change (a comment line appended), spread over the repositories.
            var random = SystemRandomNumberGenerator()
            let changed = swiftFiles.shuffled(using: &random).prefix(max(1, swiftFiles.count / 100))
            for file in changed {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file.path))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data("\n// edited for the second night\n".utf8))
                try handle.close()
            }
            for repository in Set(changed.map(\.repository)) {
                try archive(root.appendingPathComponent("repo-\(repository)"), repository: repository, root: root)
            }
            let second = try night(binary, config: configPath, date: "2026-01-02", environment: environment, settings: settings)
            print("""
                Organisation of \(repositories) generated repositories, \(filesPerRepository) files each (\(swiftFiles.count) Swift files), \
                two worker processes (`a11y-audit worker --until-idle`), per-file cache in PostgreSQL:

                | night | wall time (s) | repositories/minute | files parsed | cache hits |
                |---|---:|---:|---:|---:|
                | first (cold) | \(String(format: "%.1f", first.seconds)) | \(Int(Double(repositories) / first.seconds * 60)) | \(first.parsed) | \(first.hits) |
                | second, \(changed.count) files (1%) changed | \(String(format: "%.1f", second.seconds)) | \(Int(Double(repositories) / second.seconds * 60)) | \(second.parsed) | \(second.hits) |

                Second night / first night rate: \(String(format: "%.1fx", first.seconds / second.seconds)) (goal: at least 10x)
                """)
        }
    }

    static func archive(_ folder: URL, repository: Int, root: URL) throws {
        let status = try runChild("/bin/tar", ["-czf", root.appendingPathComponent("repo-\(repository).tar.gz").path,
                                               "-C", root.path, folder.lastPathComponent])
        guard status == 0 else { throw BenchFailure("tar failed for repository \(repository)") }
    }

    /// Schedules a night and runs two worker processes until the queue is empty.
    static func night(_ binary: String, config: String, date: String, environment: [String: String],
                      settings: ConnectionSettings) throws -> (seconds: Double, parsed: Int, hits: Int) {
        let started = DispatchTime.now().uptimeNanoseconds
        try run(binary, ["schedule", "--config", config, "--date", date], environment: environment)
        let workers = try (0..<2).map { index in
            try start(binary, ["worker", "--until-idle", "--poll", "0.2", "--scan-jobs", "1", "--name", "bench-\(index)"], environment: environment)
        }
        for worker in workers { worker.waitUntilExit() }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let outcome = try QueueMeasurements(connection: PostgresConnection(settings)).runOutcome(date: date)
        guard let outcome, outcome.state == .succeeded, outcome.succeeded == outcome.jobs else {
            throw BenchFailure("night \(date) did not succeed: \(outcome?.state?.rawValue ?? "no run")")
        }
        FileHandle.standardError.write(Data("night \(date): \(String(format: "%.1f", seconds)) s; per job fetch / scan / write ms: \(outcome.phases)\n".utf8))
        return (seconds, outcome.filesParsed, outcome.cacheHits)
    }

    static func run(_ binary: String, _ arguments: [String], environment: [String: String]) throws {
        let process = try start(binary, arguments, environment: environment)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchFailure("\(arguments.first ?? "") exited \(process.terminationStatus)") }
    }

    static func start(_ binary: String, _ arguments: [String], environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}

// MARK: Dashboard rendering

extension PipelineBench {
    /// `--only render`: a generated history of `repositories` × `nights` written through the real
    /// tables, then a full render, a re-render with nothing changed, and an incremental render
    /// after one more job.
    static func render(repositories: Int, nights: Int) throws {
        try withDatabase("render") { settings in
            let connection = try PostgresConnection(settings)
            let history = FixtureHistory(teams: max(3, repositories / 25), repositories: repositories, nights: nights)
            let setup = try seconds { try history.write(to: connection) }
            let web = Migrations.defaultDirectory().replacingOccurrences(of: "/Migrations", with: "/Web")
            let site = try temporaryDirectory("site")
            defer { try? FileManager.default.removeItem(at: site) }
            let renderer = try SiteRenderer(connection: connection, output: site.path, webDirectory: web)
            var full = RenderSummary(), again = RenderSummary(), incremental = RenderSummary()
            let fullSeconds = try seconds { full = try renderer.renderAll() }
            let againSeconds = try seconds { again = try renderer.renderAll() }

            let simulation = SimulationQueries(connection: connection)
            let run = try simulation.addManualRun(org: "fixture", date: "2099-01-01")
            guard let repository = try simulation.firstRepository() else { throw BenchFailure("no repository") }
            let queue = JobQueue(connection: connection)
            _ = try queue.enqueue(JobRequest(runID: run, repositoryID: repository.id, kind: .manual, commitRef: "main", archiveURL: "file:///x"))
            guard let job = try queue.claim(worker: "bench") else { throw BenchFailure("no job") }
            var findings = history.findings(repository: 0, night: nights)
            findings.append(FixtureHistory.finding(FixtureHistory.rules[0], file: "App/New.swift", line: 1, code: "new"))
            findings.assignFingerprints()
            _ = try queue.complete(job) {
                try HistoryWriter(connection: $0).write(JobResults(findings: findings.map { .init(finding: $0, teamID: repository.teamID) },
                                                                   filesScanned: 1, filesParsed: 1, cacheHits: 0), for: job)
            }
            let incrementalSeconds = try seconds { incremental = try renderer.renderAfterJob(job.id) }
            print("""
                Dashboard render of \(repositories) repositories x \(nights) nights (\(history.teams) teams; history written through the \
                pipeline tables in \(String(format: "%.1f", setup)) s):

                | render | pages | written | time (s) |
                |---|---:|---:|---:|
                | full, empty folder | \(full.pages) | \(full.written) | \(String(format: "%.2f", fullSeconds)) |
                | full, nothing changed | \(again.pages) | \(again.written) | \(String(format: "%.2f", againSeconds)) |
                | incremental, after one job | \(incremental.pages) | \(incremental.written) | \(String(format: "%.3f", incrementalSeconds)) |
                """)
        }
    }
}
