import AuditPipeline
import AuditStore
import DatabaseTestSupport
import Foundation
import PostgresClient
import Synchronization
import Testing

/// Signals the scan children of chosen repositories, as a crash or a hang would stop them: a
/// child's command line names its repository (`scan-child … --root acme/crash`).
final class ChildSaboteur: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let handled = Mutex<Set<Int32>>([])

    /// `actions`: repository name → (signal, seconds the child runs before it).
    init(_ actions: [String: (signal: Int32, after: Double)]) {
        let thread = Thread { [self] in
            var seen: [Int32: Date] = [:]
            while !self.stopped.load(ordering: .relaxed) {
                for (pid, arguments) in ChildSaboteur.scanChildren() {
                    guard let rootIndex = arguments.firstIndex(of: "--root"), rootIndex + 1 < arguments.count,
                          let action = actions[arguments[rootIndex + 1]] else { continue }
                    let first = seen[pid] ?? Date()
                    seen[pid] = first
                    if Date().timeIntervalSince(first) >= action.after, self.handled.withLock({ $0.insert(pid).inserted }) {
                        kill(pid, action.signal)
                    }
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        thread.start()
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    var signalled: Int { handled.withLock { $0.count } }

    /// Scan children checking one of `repositories` (other suites run their own in parallel).
    static func scanChildren(of repositories: Set<String>) -> [Int32] {
        scanChildren().filter { _, arguments in
            guard let index = arguments.firstIndex(of: "--root"), index + 1 < arguments.count else { return false }
            return repositories.contains(arguments[index + 1])
        }.map(\.0)
    }

    static func scanChildren() -> [(Int32, [String])] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry in
            guard let pid = Int32(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.contains("scan-child") ? (pid, arguments) : nil
        }
    }
}

@Suite(.serialized) struct IsolationTests {
    /// Twenty ordinary repositories and three that crash, hang or blow up their checks: every
    /// ordinary job succeeds on its first attempt, the three use their attempts and are dead
    /// with errors naming the cause and where, the run finishes, the worker never dies, and no
    /// work folder is left.
    @Test func aCrashAHangAndAMemoryBlowUpFailTheirJobsAloneAndTheNightFinishes() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let ordinary = try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "app.tar.gz")
            // The crashing and hanging repositories have a file that takes a while to check, so
            // their children are stopped in the middle of the checks.
            let slowFolder = try workspace.sampleRepository("Slow")
            let slowBody = (0..<4000).map { "        Text(\"row \($0)\").font(.system(size: 12))\n" }.joined()
            try "import SwiftUI\nstruct Rows: View {\n    var body: some View {\n    VStack {\n\(slowBody)    }\n    }\n}\n"
                .write(toFile: slowFolder + "/Rows.swift", atomically: true, encoding: .utf8)
            let slow = try workspace.archive(slowFolder, as: "slow.tar.gz")
            // Really heavy: 30,000 findings-bearing views take well over the memory limit.
            let heavyFolder = workspace.root + "/Heavy"
            try FileManager.default.createDirectory(atPath: heavyFolder, withIntermediateDirectories: true)
            let heavyBody = (0..<30_000).map { "Text(\"x\($0)\").font(.system(size: 9)).onTapGesture { }\n" }.joined()
            try "import SwiftUI\nstruct Heavy: View { var body: some View { VStack {\n\(heavyBody)} } }\n"
                .write(toFile: heavyFolder + "/Heavy.swift", atomically: true, encoding: .utf8)
            let heavy = try workspace.archive(heavyFolder, as: "heavy.tar.gz")

            var repositories = (0..<20).map { (name: "acme/app-\($0)", archive: ordinary) }
            repositories += [("acme/crash", slow), ("acme/hang", slow), ("acme/heavy", heavy)]
            let configPath = try workspace.writeConfig(repositories)
            var config = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: configPath))) as? [String: Any] ?? [:]
            config["limits"] = ["maxAttempts": 2, "jobSeconds": 12, "jobMemoryMB": 120]
            try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: configPath))
            let run = try scheduleNight(database, config: configPath, date: "2026-11-28")

            let saboteur = ChildSaboteur(["acme/crash": (SIGSEGV, 0.3), "acme/hang": (SIGSTOP, 0.3)])
            defer { saboteur.stop() }
            let summary = try runWorker(database, workspace)
            saboteur.stop()

            #expect(summary.succeeded == 20)
            #expect(summary.failed == 6, "three jobs, two attempts each")
            let connection = try database.connect()
            let jobs = try connection.query("""
                SELECT r.name, j.state, j.attempt, j.last_error FROM jobs j JOIN repositories r ON r.id = j.repository_id
                WHERE j.run_id = $1
                """, [.int(run)], purpose: "read the jobs")
            #expect(jobs.count == 23)
            for row in jobs {
                let name = row.string("name") ?? "", error = row.string("last_error") ?? ""
                switch name {
                case "acme/crash":
                    #expect(row.string("state") == "dead" && row.int("attempt") == 2)
                    #expect(error.hasPrefix("a11y-audit crashed (signal 11) while "), "\(error)")
                case "acme/hang":
                    #expect(row.string("state") == "dead" && row.int("attempt") == 2)
                    #expect(error.contains("after the 12 s time limit (limits.jobSeconds) while "), "\(error)")
                case "acme/heavy":
                    #expect(row.string("state") == "dead" && row.int("attempt") == 2)
                    #expect(error.contains("over the 120 MB memory limit (limits.jobMemoryMB) while checking Heavy.swift"), "\(error)")
                default:
                    #expect(row.string("state") == "succeeded" && row.int("attempt") == 1, "\(name): \(error)")
                }
            }
            #expect(try value(connection, "SELECT state FROM runs WHERE id = $1", [.int(run)]) == "failed")
            #expect(try value(connection, "SELECT finished_at IS NOT NULL FROM runs WHERE id = $1", [.int(run)]) == "t")
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.workDirectory).isEmpty)
            #expect(ChildSaboteur.scanChildren(of: ["acme/crash", "acme/hang", "acme/heavy"]).isEmpty, "no scan child outlives its job")
        }
    }

    /// A cancelled job's child is killed at once, not left to run to its limit.
    @Test func cancellingARunningJobKillsItsChecks() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let slowFolder = try workspace.sampleRepository("Slow")
            let slow = try workspace.archive(slowFolder, as: "slow.tar.gz")
            let config = try workspace.writeConfig([("acme/stuck", slow)])
            _ = try scheduleNight(database, config: config, date: "2026-11-28")
            // The stopped child would sit out the whole default limit (30 minutes) if the
            // worker did not kill it on cancellation.
            let saboteur = ChildSaboteur(["acme/stuck": (SIGSTOP, 0)])
            defer { saboteur.stop() }
            let canceller = Thread {
                while ChildSaboteur.scanChildren(of: ["acme/stuck"]).isEmpty { Thread.sleep(forTimeInterval: 0.05) }
                if let connection = try? database.connect() {
                    _ = try? connection.query("UPDATE jobs SET cancel_requested = true WHERE state = 'running'", purpose: "cancel")
                }
            }
            canceller.start()
            let started = Date()
            var options = workerOptions(database, workspace, concurrency: 1, lease: 1)
            options.mode = .untilIdle
            let summary = try Worker(options: options, source: FetchingArchiveSource(), log: .silent).run()
            #expect(summary.cancelled == 1)
            #expect(Date().timeIntervalSince(started) < 30)
            let connection = try database.connect()
            #expect(try value(connection, "SELECT state FROM jobs") == "cancelled")
            #expect(ChildSaboteur.scanChildren(of: ["acme/stuck"]).isEmpty)
        }
    }
}
