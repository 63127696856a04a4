import AuditStore
import Foundation
import PostgresClient

// `--only drain [--jobs N] [--workers W] [--kills K] [--seed S]`: the job queue at organisation
// scale. One run of N repositories is scheduled at once (`a11y-audit schedule`), then W
// `a11y-audit worker --until-idle` processes drain it, optionally with K of them killed with
// SIGKILL at random moments and replaced. Every repository's archive is the same tiny tar.gz
// (one folder, one Swift file), so a job's fetch and scan cost a few milliseconds and what is
// measured is the queue: claims, leases, completions and the database writes of each job.
// `--drain-folder DIR` gives every job a tar.gz of DIR instead (made in a temporary folder; DIR
// is only read), so that the per-job costs of isolation can be set against real checks.

extension SplitMix: RandomNumberGenerator {}

enum QueueDrainBench {
    struct Settings {
        var jobs: Int
        var workers: Int
        var kills: Int
        var seed: UInt64
        var workerFlags: [String] = []
        var folder: String?
    }

    static func run(jobs: Int, workers: Int, kills: Int, seed: UInt64?, workerFlags: [String] = [], folder: String? = nil) throws {
        let settings = Settings(jobs: jobs, workers: workers, kills: kills, seed: seed ?? UInt64.random(in: 1...UInt64.max),
                                workerFlags: workerFlags, folder: folder)
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("a11y-audit").path
        guard FileManager.default.isExecutableFile(atPath: binary) else { throw BenchFailure("\(binary) not built") }
        if ProcessInfo.processInfo.environment["DATABASE_URL"].map({ !$0.isEmpty }) == true {
            try PipelineBench.withDatabase("drain") { try drain(settings, binary: binary, database: $0) }
        } else {
            try withPrivateServer { server in
                try PipelineBench.withDatabase("drain", server: server) { try drain(settings, binary: binary, database: $0) }
            }
        }
    }

    /// A throwaway cluster from deploy/postgres.sh. Its max_connections of 200 is enough: each
    /// worker process holds two connections (its slot's and its lease keeper's), so 32 workers
    /// use 64, and a killed worker's backends end as soon as the kernel closes its sockets.
    static func withPrivateServer<T>(_ body: (ConnectionSettings) throws -> T) throws -> T {
        let root = URL(fileURLWithPath: Migrations.defaultDirectory()).deletingLastPathComponent().path
        let script = root + "/deploy/postgres.sh"
        let directory = try temporaryDirectory("drain-pg")
        FileHandle.standardError.write(Data("starting a private PostgreSQL in \(directory.path) (set DATABASE_URL to use another)\n".utf8))
        let output = directory.appendingPathComponent("start.log").path
        let status = try spawnAndWait(script, ["start", directory.path + "/cluster"], output: output)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        defer {
            _ = try? spawnAndWait(script, ["stop", directory.path + "/cluster"], output: "/dev/null")
            try? FileManager.default.removeItem(at: directory)
        }
        guard status == 0, let url = text.split(separator: "\n").last.map(String.init), url.hasPrefix("postgresql://") else {
            throw BenchFailure("deploy/postgres.sh start failed: \(text)")
        }
        return try body(ConnectionSettings(conninfo: url))
    }

    // MARK: The drain

    static func drain(_ settings: Settings, binary: String, database: ConnectionSettings) throws {
        let root = try temporaryDirectory("drain")
        defer { try? FileManager.default.removeItem(at: root) }
        let archive = try settings.folder.map { try folderArchive($0, in: root) } ?? tinyArchive(in: root)
        let config: [String: Any] = [
            "org": "bench", "teams": [["name": "Apps"]],
            "repositories": (0..<settings.jobs).map { ["name": "bench/repo-\($0)", "team": "Apps", "archive": "file://" + archive] },
            "limits": ["maxAttempts": 5],
        ]
        let configPath = root.appendingPathComponent("org.json").path
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: configPath))
        let environment = ["DATABASE_URL": database.conninfo]
        let measurements = QueueMeasurements(connection: try PostgresConnection(database))

        let scheduleSeconds = try seconds {
            let status = try spawnAndWait(binary, ["schedule", "--config", configPath, "--date", "2026-12-01"],
                                          output: root.appendingPathComponent("schedule.log").path, environment: environment)
            guard status == 0 else { throw BenchFailure("schedule exited \(status)") }
        }
        let queued = try measurements.count(.queued)
        guard queued == settings.jobs else { throw BenchFailure("\(queued) jobs queued, expected \(settings.jobs)") }
        FileHandle.standardError.write(Data("scheduled \(queued) jobs in \(String(format: "%.2f", scheduleSeconds)) s; seed \(settings.seed)\n".utf8))

        // With kills, a short lease so the victims' jobs come back within the drain; without,
        // the default would do, but the same lease keeps the two runs comparable.
        let lease = 10.0
        let logs = root.appendingPathComponent("logs").path
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        let work = root.appendingPathComponent("work").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let fleet = Fleet(binary: binary, environment: environment, logDirectory: logs, arguments: [
            "worker", "--until-idle", "--lease", String(lease), "--poll", "0.5", "--retry-backoff", "0.1", "--scan-jobs", "1",
            "--work-dir", work,
        ] + settings.workerFlags)
        defer { fleet.killAll() }

        let startedAt = try measurements.clock()
        let wallStarted = DispatchTime.now().uptimeNanoseconds
        for index in 0..<settings.workers { try fleet.start("drain-\(index)") }

        var random = SplitMix(seed: settings.seed)
        let thresholds = (0..<settings.kills).map { _ in
            Int.random(in: max(1, settings.jobs / 20)...max(1, settings.jobs * 4 / 5), using: &random)
        }.sorted()
        var heldByVictims: [Int: String] = [:]
        for (index, threshold) in thresholds.enumerated() {
            while try measurements.count(.succeeded) < threshold {
                guard !fleet.reapExited() else { throw BenchFailure("every worker exited before \(threshold) jobs succeeded") }
                Thread.sleep(forTimeInterval: 0.05)
            }
            // A worker with a job in hand, so that its job has to be rescued.
            let holders = try measurements.workersHoldingJobs().filter { fleet.isLive($0) }
            guard let victim = (holders.isEmpty ? fleet.liveNames : holders).randomElement(using: &random) else {
                throw BenchFailure("no live worker to kill")
            }
            fleet.kill9(victim)
            let held = try measurements.jobsHeld(by: victim)
            for job in held { heldByVictims[job] = victim }
            FileHandle.standardError.write(Data("kill \(index + 1)/\(settings.kills) at \(threshold) succeeded: \(victim) held \(held)\n".utf8))
            try fleet.start("drain-r\(index)")
        }
        while !fleet.reapExited() { Thread.sleep(forTimeInterval: 0.05) }
        let wallSeconds = Double(DispatchTime.now().uptimeNanoseconds - wallStarted) / 1e9

        try report(settings, outcome: measurements.drainOutcome(), fleet: fleet, startedAt: startedAt, wallSeconds: wallSeconds,
                   scheduleSeconds: scheduleSeconds, lease: lease, heldByVictims: heldByVictims)
    }

    /// One top folder with one SwiftUI file that has one finding.
    static func tinyArchive(in root: URL) throws -> String {
        let folder = root.appendingPathComponent("tiny/Sources")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
            import SwiftUI

            struct Badge: View {
                var body: some View { Text("New").font(.system(size: 9)) }
            }
            """.write(to: folder.appendingPathComponent("Badge.swift"), atomically: true, encoding: .utf8)
        let path = root.appendingPathComponent("tiny.tar.gz").path
        guard try runChild("/bin/tar", ["-czf", path, "-C", root.path, "tiny"]) == 0 else { throw BenchFailure("tar failed") }
        return path
    }

    /// A tar.gz of `folder` under its own name as the top folder, without `.git`, as GitHub's
    /// archives are.
    static func folderArchive(_ folder: String, in root: URL) throws -> String {
        let url = URL(fileURLWithPath: folder).standardizedFileURL
        let path = root.appendingPathComponent("folder.tar.gz").path
        guard try runChild("/bin/tar", ["-czf", path, "--exclude=.git", "-C", url.deletingLastPathComponent().path, url.lastPathComponent]) == 0 else {
            throw BenchFailure("tar of \(folder) failed")
        }
        return path
    }

    // MARK: Results and checks

    static func report(_ settings: Settings, outcome: QueueMeasurements.DrainOutcome, fleet: Fleet, startedAt: Double, wallSeconds: Double,
                       scheduleSeconds: Double, lease: Double, heldByVictims: [Int: String]) throws {
        let claimed = fleet.events("job.claimed")
        let claims = claimed.compactMap { $0["claim_ms"].flatMap(Double.init) }.sorted()
        guard claims.count >= settings.jobs else { throw BenchFailure("only \(claims.count) claims logged with claim_ms") }
        func percentile(_ p: Double) -> Double { claims[min(claims.count - 1, Int((p * Double(claims.count)).rounded(.up)) - 1)] }

        let repeatedIDs = outcome.repeatedIDs
        let successes = Dictionary(grouping: fleet.events("job.succeeded").compactMap { $0["job"] }, by: { $0 })

        let drainSeconds = (outcome.lastFinished ?? startedAt) - startedAt
        let succeeded = outcome.succeeded
        let unexplained = repeatedIDs.filter { heldByVictims[$0] == nil }
        var failures: [String] = []
        if succeeded != settings.jobs { failures.append("\(succeeded) of \(settings.jobs) jobs succeeded") }
        if outcome.leftOver != 0 { failures.append("\(outcome.leftOver) jobs left queued, running or failed") }
        if outcome.lost != 0 { failures.append("\(outcome.lost) jobs dead or cancelled") }
        if outcome.notOnce != 0 { failures.append("\(outcome.notOnce) jobs without exactly one summary") }
        if outcome.summaries != settings.jobs { failures.append("\(outcome.summaries) summaries for \(settings.jobs) jobs") }
        if outcome.runState != .succeeded { failures.append("run is \(outcome.runState?.rawValue ?? "missing")") }
        if !unexplained.isEmpty { failures.append("jobs run more than once though no killed worker held them: \(unexplained.prefix(20))") }
        if let twice = successes.first(where: { $0.value.count > 1 }) { failures.append("job \(twice.key) logged success \(twice.value.count) times") }
        let unrescued = heldByVictims.keys.filter { !repeatedIDs.contains($0) }
        if !unrescued.isEmpty { failures.append("jobs held by killed workers but not run again: \(unrescued.sorted())") }

        let cores = ProcessInfo.processInfo.activeProcessorCount
        let format = { (value: Double) in String(format: value < 10 ? "%.2f" : "%.1f", value) }
        print("""
            Queue drain: \(settings.jobs) jobs (one run, \(settings.folder.map { "an archive of \($0)" } ?? "one tiny archive") each), \(settings.workers) worker processes, \
            \(settings.kills) SIGKILLs (seed \(settings.seed)), lease \(Int(lease)) s, \(cores) cores

            | measurement | value |
            |---|---:|
            | enqueue (`a11y-audit schedule`, \(settings.jobs) jobs in one transaction) | \(format(scheduleSeconds)) s |
            | drain, first worker started to last job finished | \(format(drainSeconds)) s |
            | jobs/s | \(Int((Double(settings.jobs) / max(drainSeconds, 0.001)).rounded())) |
            | wall time until every worker exited | \(format(wallSeconds)) s |
            | claims logged | \(claims.count) |
            | claim latency p50 / p95 / p99 / max | \(format(percentile(0.5))) / \(format(percentile(0.95))) / \(format(percentile(0.99))) / \(format(claims.last ?? 0)) ms |
            | most jobs running at once | \(outcome.mostRunningAtOnce) |
            | per job: fetch / scan / write (mean ms) | \(outcome.phases) |
            | jobs succeeded | \(succeeded) |
            | jobs with exactly one summary | \(settings.jobs - outcome.notOnce) |
            | jobs left queued, running or failed; dead or cancelled | \(outcome.leftOver); \(outcome.lost) |
            | jobs run more than once (all held by a killed worker) | \(repeatedIDs.count) (\(heldByVictims.count) held by victims) |
            """)
        guard failures.isEmpty else { throw BenchFailure("exactly-once checks failed:\n" + failures.joined(separator: "\n")) }
        print("\nexactly-once checks: passed")
    }
}

/// Worker processes started with posix_spawn (so this process reaps them and can SIGKILL them),
/// each with standard error, its logfmt log, in a file of its own.
final class Fleet {
    let binary: String
    let environment: [String: String]
    let logDirectory: String
    let arguments: [String]
    private var live: [String: pid_t] = [:]
    private var started: [String] = []

    init(binary: String, environment: [String: String], logDirectory: String, arguments: [String]) {
        self.binary = binary; self.environment = environment; self.logDirectory = logDirectory; self.arguments = arguments
    }

    var liveNames: [String] { live.keys.sorted() }
    func isLive(_ name: String) -> Bool { live[name] != nil }

    func start(_ name: String) throws {
        live[name] = try spawn(binary, arguments + ["--name", name], output: logDirectory + "/\(name).log", environment: environment)
        started.append(name)
    }

    func kill9(_ name: String) {
        guard let pid = live.removeValue(forKey: name) else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    func killAll() { for name in liveNames { kill9(name) } }

    /// Reaps workers that exited on their own; true once none is left.
    func reapExited() -> Bool {
        for (name, pid) in live {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { live[name] = nil }
        }
        return live.isEmpty
    }

    /// The fields of every `event=NAME` line in every worker's log.
    func events(_ name: String) -> [[String: Substring]] {
        started.flatMap { worker -> [[String: Substring]] in
            let text = (try? String(contentsOfFile: logDirectory + "/\(worker).log", encoding: .utf8)) ?? ""
            return text.split(separator: "\n").filter { $0.contains(" event=\(name) ") }.map { line in
                var fields: [String: Substring] = [:]
                for pair in line.split(separator: " ") {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    fields[String(pair[..<equals])] = pair[pair.index(after: equals)...]
                }
                return fields
            }
        }
    }
}

/// posix_spawn with standard output and error to `output`, this environment plus `environment`.
func spawn(_ executable: String, _ arguments: [String], output: String, environment: [String: String] = [:]) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let env = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { env.forEach { free($0) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, executable, &actions, nil, argv, env)
    guard result == 0 else { throw BenchFailure("cannot start \(executable): error \(result)") }
    return pid
}

/// Runs to the end; returns the exit status (-1 when killed by a signal).
func spawnAndWait(_ executable: String, _ arguments: [String], output: String, environment: [String: String] = [:]) throws -> Int32 {
    let pid = try spawn(executable, arguments, output: output, environment: environment)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
}
