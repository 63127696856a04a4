import AuditPipeline
import AuditStore
import DatabaseTestSupport
import Foundation
import PostgresClient
import Synchronization
import Testing

/// Signals the scan children of chosen repositories, as a crash or a hang would stop them: a
/// busy child's process title names the repository it checks (`scan-child --serve --work-dir
/// … --root acme/crash`).
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

/// A worker log kept in memory, read back as events.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])

    var log: WorkerLog { WorkerLog { [self] line in self.lines.withLock { $0.append(line) } } }

    /// The `key=value` fields of every `event=NAME` line, in order (values unquoted only
    /// where they have no space: enough for ids, pids and names).
    func events(_ name: String) -> [[String: String]] {
        let all = lines.withLock { Array($0) }
        return all.filter { $0.contains(" event=\(name) ") || $0.hasSuffix(" event=\(name)") }.map { line in
            var fields: [String: String] = [:]
            for pair in line.split(separator: " ") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                fields[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]).trimmingCharacters(in: ["\""])
            }
            return fields
        }
    }

    func contains(_ text: String) -> Bool { lines.withLock { $0.contains { $0.contains(text) } } }
}

/// Runs a one-slot worker until the queue is idle, with its log captured.
func runOneSlot(_ database: TestDatabase, _ workspace: Workspace, change: (inout ScanIsolation) -> Void = { _ in })
    throws -> (summary: WorkerSummary, log: CapturedLog) {
    var options = workerOptions(database, workspace, concurrency: 1)
    if var isolation = options.isolation {
        change(&isolation)
        options.isolation = isolation
    }
    let log = CapturedLog()
    let summary = try Worker(options: options, source: FetchingArchiveSource(), log: log.log).run()
    return (summary, log)
}

/// Whether process `pid` still exists (a zombie counts: it was not reaped).
func processExists(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
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
            // An ordinary job's child (debug build, reused from job to job) was seen at 122 MB on
            // a loaded machine. A fresh debug child passes 160 MB on the heavy file about 6 s
            // into its checks on an idle machine (its tree grows at the parser's pace); under the
            // whole suite's load that took over 12 s, and the time limit won the race.
            config["limits"] = ["maxAttempts": 2, "jobSeconds": 24, "jobMemoryMB": 160]
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
                    #expect(error.contains("after the 24 s time limit (limits.jobSeconds) while "), "\(error)")
                case "acme/heavy":
                    #expect(row.string("state") == "dead" && row.int("attempt") == 2)
                    #expect(error.contains("over the 160 MB memory limit (limits.jobMemoryMB) while checking Heavy.swift"), "\(error)")
                default:
                    #expect(row.string("state") == "succeeded" && row.int("attempt") == 1, "\(name): \(error)")
                }
            }
            #expect(try value(connection, "SELECT state FROM runs WHERE id = $1", [.int(run)]) == "failed")
            #expect(try value(connection, "SELECT finished_at IS NOT NULL FROM runs WHERE id = $1", [.int(run)]) == "t")
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.workDirectory).isEmpty)
            #expect(ChildSaboteur.scanChildren(of: ["acme/crash", "acme/hang", "acme/heavy"]).isEmpty, "no scan child outlives its job")
            #expect(!ChildSaboteur.scanChildren().contains { $0.1.contains(workspace.workDirectory) }, "no scan child outlives the worker")
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

    /// A slot's jobs go to one long-lived child: three jobs, one child started, the same
    /// process id in each job's result (the child writes its own), not the worker's; when the
    /// worker returns the child is gone and so are the work folders.
    @Test func aSlotsJobsAreCheckedOneAfterAnotherByTheSameChild() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let app = try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "app.tar.gz")
            let config = try workspace.writeConfig([("acme/one", app), ("acme/two", app), ("acme/three", app)])
            _ = try scheduleNight(database, config: config, date: "2026-11-28")
            let (summary, log) = try runOneSlot(database, workspace)
            #expect(summary.succeeded == 3 && summary.failed == 0)

            let pids = log.events("job.succeeded").compactMap { $0["scan_pid"].flatMap { Int32($0) } }
            #expect(pids.count == 3)
            #expect(Set(pids).count == 1, "one child for the slot's three jobs: \(pids)")
            let pid = try #require(pids.first)
            #expect(pid != getpid())
            #expect(log.events("scan-child.started").map { $0["pid"] } == [String(pid)])
            #expect(!processExists(pid), "the worker killed and reaped its child when it returned")
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.workDirectory).isEmpty)
        }
    }

    /// A child's answer travels on its pipe: one far bigger than a pipe's buffer (thousands of
    /// findings, hundreds of cache entries) arrives whole, and the cache entries it brings back
    /// serve the next night, which parses nothing.
    @Test func aLargeAnswerAndItsCacheEntriesComeBackWholeOverThePipe() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let folder = try workspace.sampleRepository("Large")
            let rows = (0..<40).map { "        Text(\"row \($0)\").font(.system(size: 12))\n" }.joined()
            for index in 0..<300 {
                try "import SwiftUI\nstruct Rows\(index): View {\n    var body: some View {\n    VStack {\n\(rows)    }\n    }\n}\n"
                    .write(toFile: folder + "/Rows\(index).swift", atomically: true, encoding: .utf8)
            }
            let config = try workspace.writeConfig([("acme/large", try workspace.archive(folder, as: "large.tar.gz"))])
            let night1 = try scheduleNight(database, config: config, date: "2026-11-28")
            let first = try runOneSlot(database, workspace).summary
            #expect(first.succeeded == 1 && first.failed == 0)
            let connection = try database.connect()
            let stored = Int(try value(connection, "SELECT count(*) FROM findings WHERE rule_id = 'fixed-font-size' AND first_seen_run = $1",
                                       [.int(night1)]) ?? "") ?? 0
            #expect(stored >= 300 * 40, "every fixed font of the 300 files is stored: \(stored)")

            let night2 = try scheduleNight(database, config: config, date: "2026-11-29")
            #expect(try runOneSlot(database, workspace).summary.succeeded == 1)
            let summary = try #require(try connection.query(
                "SELECT files_scanned, files_parsed, cache_hits FROM job_summaries WHERE run_id = $1", [.int(night2)], purpose: "read").first)
            #expect(summary.int("files_parsed") == 0, "the first night's child sent back a cache entry for every file")
            #expect((summary.int("cache_hits") ?? 0) >= 300)
            #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.workDirectory).isEmpty)
        }
    }

    /// A child that crashes is not given the slot's next job: that job succeeds on a fresh
    /// child, and the crashed one is reaped.
    @Test func afterACrashTheSlotsNextJobSucceedsOnAFreshChild() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let app = try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "app.tar.gz")
            let slowFolder = try workspace.sampleRepository("Slow")
            let slowBody = (0..<4000).map { "        Text(\"row \($0)\").font(.system(size: 12))\n" }.joined()
            try "import SwiftUI\nstruct Rows: View {\n    var body: some View {\n    VStack {\n\(slowBody)    }\n    }\n}\n"
                .write(toFile: slowFolder + "/Rows.swift", atomically: true, encoding: .utf8)
            let slow = try workspace.archive(slowFolder, as: "slow.tar.gz")
            // Claimed in this order (one slot; names and config agree on it); one attempt each.
            let configPath = try workspace.writeConfig([("acme/1-before", app), ("acme/2-crash", slow), ("acme/3-after", app)])
            var config = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: configPath))) as? [String: Any] ?? [:]
            config["limits"] = ["maxAttempts": 1]
            try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: configPath))
            _ = try scheduleNight(database, config: configPath, date: "2026-11-28")

            let saboteur = ChildSaboteur(["acme/2-crash": (SIGSEGV, 0.3)])
            defer { saboteur.stop() }
            let (summary, log) = try runOneSlot(database, workspace)
            saboteur.stop()
            #expect(summary.succeeded == 2 && summary.failed == 1)
            #expect(saboteur.signalled == 1)

            let succeeded = log.events("job.succeeded")
            let before = try #require(succeeded.first { $0["repo"] == "acme/1-before" }?["scan_pid"].flatMap { Int32($0) })
            let after = try #require(succeeded.first { $0["repo"] == "acme/3-after" }?["scan_pid"].flatMap { Int32($0) })
            #expect(before != after, "the job after the crash ran on a fresh child")
            #expect(log.events("scan-child.started").compactMap { $0["pid"] } == [String(before), String(after)])
            #expect(log.contains("event=scan-child.retired slot=0 pid=\(before) reason=\"exited during a job\""))
            #expect(!processExists(before) && !processExists(after))
            let connection = try database.connect()
            let error = try value(connection, """
                SELECT j.last_error FROM jobs j JOIN repositories r ON r.id = j.repository_id WHERE r.name = 'acme/2-crash'
                """) ?? ""
            #expect(error.hasPrefix("a11y-audit crashed (signal 11) while "), "\(error)")
        }
    }

    /// A child retires after its quota of snapshots, and before a job when its idle memory is
    /// over the allowance (1 MB here: always), so each of those jobs gets a fresh child.
    @Test func aChildRetiresAfterItsQuotaOfSnapshotsAndWhenIdleMemoryIsOverTheAllowance() throws {
        try TestDatabase.with { database in
            let workspace = try Workspace()
            let app = try workspace.archive(try workspace.sampleRepository("SampleApp"), as: "app.tar.gz")
            let config = try workspace.writeConfig([("acme/one", app), ("acme/two", app), ("acme/three", app)])
            _ = try scheduleNight(database, config: config, date: "2026-11-28")
            let (quota, quotaLog) = try runOneSlot(database, workspace) { $0.snapshotsPerChild = 2 }
            #expect(quota.succeeded == 3)
            let quotaPIDs = quotaLog.events("job.succeeded").compactMap { $0["scan_pid"] }
            #expect(quotaPIDs.count == 3 && quotaPIDs[0] == quotaPIDs[1] && quotaPIDs[1] != quotaPIDs[2], "\(quotaPIDs)")
            #expect(quotaLog.contains("reason=\"served 2 snapshots\""))

            _ = try scheduleNight(database, config: config, date: "2026-11-29")
            let (idle, idleLog) = try runOneSlot(database, workspace) { $0.idleMemoryLimitMB = 1 }
            #expect(idle.succeeded == 3)
            let idlePIDs = idleLog.events("job.succeeded").compactMap { $0["scan_pid"] }
            #expect(idlePIDs.count == 3 && Set(idlePIDs).count == 3, "\(idlePIDs)")
            #expect(idleLog.contains("reason=\"idle at "))
        }
    }
}
