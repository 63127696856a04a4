import ArchiveFetch
import AuditPipeline
import AuditStore
import CommandLineOptions
import Dashboard
import Foundation
import Synchronization
import GitHubClient
import OrgModel
import PostgresClient

let pipelineUsage = """
    Pipeline (PostgreSQL from DATABASE_URL, or libpq's PG* variables):
      a11y-audit migrate [--migrations DIR]
      a11y-audit schedule --config ORG.json (--now | --date YYYY-MM-DD) [--manual]
      a11y-audit coordinator --config ORG.json [--tick SECONDS]
      a11y-audit worker [--concurrency N] [--once | --until-idle] [--lease SECONDS] [--poll SECONDS]
                        [--retry-backoff SECONDS] [--grace SECONDS] [--name NAME] [--work-dir DIR] [--scan-jobs N] [--no-cache]
                        [--max-archive-bytes N] [--max-running-jobs N] [--public-url URL] [--github-api URL]
                        [--job-seconds N] [--job-memory-mb N] [--no-isolation]
                        (tokens: GITHUB_TOKEN for archives and commit statuses, GITLAB_TOKEN,
                         GITHUB_CHECKS_TOKEN: a GitHub App installation token for check runs)
      a11y-audit status [--run ID]
      a11y-audit cancel JOB-ID
      a11y-audit prune --config ORG.json
      a11y-audit render [--out DIR] [--org ORG] [--jobs N]   (the dashboard as static pages; default site/, N threads: the cores)
    """

/// Flags of one subcommand: `--name value` (or `--name=value`) pairs and bare switches, read
/// by the one grammar every command shares (`CommandSpec`); `--help` prints the command's help.
struct Flags {
    private let parsed: ParsedArguments
    var positional: [String] { parsed.positional }

    init(_ command: String, _ arguments: [String], valued: Set<String>, switches allowedSwitches: Set<String>,
         positional maximum: Int = 0) throws {
        let spec = CommandSpec(command, options: valued.sorted().map { OptionSpec.value($0) } + allowedSwitches.sorted().map { OptionSpec.flag($0) },
                               maximumPositional: maximum, help: CommandHelp.text(for: command))
        parsed = try spec.parse(arguments)
        if parsed.helpRequested { throw HelpRequested(text: spec.help) }
    }

    func value(_ flag: String) -> String? { parsed.value(flag) }
    func has(_ flag: String) -> Bool { parsed.has(flag) }

    func number(_ flag: String, default fallback: Double, minimum: Double = 0) throws -> Double {
        guard let text = parsed.value(flag) else { return fallback }
        guard let number = Double(text), number.isFinite, number >= minimum else {
            throw UsageError(description: "\(flag) needs a number of at least \(minimum), got \"\(text)\"")
        }
        return number
    }

    func integer(_ flag: String, default fallback: Int, minimum: Int = 1) throws -> Int {
        guard let text = parsed.value(flag) else { return fallback }
        guard let number = Int(text), number >= minimum else {
            throw UsageError(description: "\(flag) needs a whole number of at least \(minimum), got \"\(text)\"")
        }
        return number
    }

    func required(_ flag: String) throws -> String {
        guard let value = parsed.value(flag) else { throw UsageError(description: "\(flag) is required") }
        return value
    }
}

/// First SIGTERM or SIGINT: `graceful` (stop taking work, finish what is in hand); a second
/// one, or `grace` seconds later: `immediate`.
final class ShutdownSignals: Sendable {
    /// Shared with the handlers, which run before `init` returns `self`.
    private final class Count: Sendable {
        let value = Atomic<Int>(0)
    }
    /// Kept so the sources live as long as this object; only `init` touches them.
    private let sources: Mutex<[any DispatchSourceSignal]>

    init(grace: Double, graceful: @escaping @Sendable () -> Void, immediate: @escaping @Sendable () -> Void) {
        let received = Count()
        let made: [any DispatchSourceSignal] = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let count = received.value.add(1, ordering: .relaxed).newValue
                if count == 1 {
                    standardError("a11y-audit: stopping after the jobs in hand (again to stop now; \(Int(grace)) s at most)")
                    graceful()
                    DispatchQueue.global().asyncAfter(deadline: .now() + grace) { immediate() }
                } else {
                    immediate()
                }
            }
            source.resume()
            return source
        }
        sources = Mutex(made)
    }
}

func connect() throws -> PostgresConnection {
    try PostgresConnection(ConnectionSettings.fromEnvironment())
}

func runMigrate(_ arguments: [String]) throws -> ExitCode {
    let flags = try Flags("migrate", arguments, valued: ["--migrations"], switches: [])
    let directory = flags.value("--migrations") ?? Migrations.defaultDirectory()
    let migrations = try Migrations.load(from: directory)
    let applied = try Migrator(connection: try connect()).migrate(migrations)
    if applied.isEmpty {
        print("schema is current (\(migrations.count) migrations)")
    } else {
        for migration in applied { print("applied \(migration.fileName)") }
    }
    return .clean
}

func runSchedule(_ arguments: [String]) throws -> ExitCode {
    let flags = try Flags("schedule", arguments, valued: ["--config", "--date"], switches: ["--now", "--manual"])
    let config = try flags.required("--config")
    guard flags.has("--now") != (flags.value("--date") != nil) else {
        throw UsageError(description: "schedule needs exactly one of --now or --date YYYY-MM-DD")
    }
    if let date = flags.value("--date") {
        let parts = date.split(separator: "-")
        guard parts.count == 3, parts.allSatisfy({ Int($0) != nil }) else {
            throw UsageError(description: "--date needs YYYY-MM-DD, got \"\(date)\"")
        }
    }
    let coordinator = Coordinator(configPath: config, database: ConnectionSettings.fromEnvironment(),
                                  discover: { try GitHubDiscovery().repositories(for: $0) })
    switch try coordinator.scheduleNow(date: flags.value("--date"), kind: flags.has("--manual") ? .manual : .nightly) {
    case .created(let run, let jobs): print("scheduled run \(run) with \(jobs) jobs")
    case .alreadyScheduled(let run): print("run \(run) was already scheduled for that night; nothing to do")
    }
    return .clean
}

func runCoordinator(_ arguments: [String]) throws -> ExitCode {
    let flags = try Flags("coordinator", arguments, valued: ["--config", "--tick"], switches: [])
    let coordinator = Coordinator(configPath: try flags.required("--config"), database: ConnectionSettings.fromEnvironment(),
                                  discover: { try GitHubDiscovery().repositories(for: $0) })
    let tick = try flags.number("--tick", default: 30, minimum: 1)
    _ = try OrgConfig.load(path: coordinator.configPath)
    let signals = ShutdownSignals(grace: 0, graceful: { coordinator.stop() }, immediate: { coordinator.stop() })
    try withExtendedLifetime(signals) { try coordinator.run(tick: tick) }
    return .clean
}

func runWorker(_ arguments: [String]) throws -> ExitCode {
    let flags = try Flags("worker", arguments, valued: ["--concurrency", "--lease", "--poll", "--grace", "--name", "--work-dir", "--scan-jobs",
                                               "--max-archive-bytes", "--max-running-jobs", "--public-url", "--github-api", "--retry-backoff",
                                               "--job-seconds", "--job-memory-mb"],
                          switches: ["--once", "--until-idle", "--no-cache", "--no-isolation"])
    guard !(flags.has("--once") && flags.has("--until-idle")) else {
        throw UsageError(description: "--once and --until-idle exclude each other")
    }
    var options = WorkerOptions(database: ConnectionSettings.fromEnvironment())
    options.concurrency = try flags.integer("--concurrency", default: 1)
    options.mode = flags.has("--once") ? .once : flags.has("--until-idle") ? .untilIdle : .forever
    options.policy.leaseSeconds = try flags.number("--lease", default: 300, minimum: 1)
    options.pollInterval = try flags.number("--poll", default: 5, minimum: 0.05)
    // The first retry's wait (failed attempts and rescued leases); each further retry doubles it.
    options.policy.backoffBaseSeconds = try flags.number("--retry-backoff", default: options.policy.backoffBaseSeconds, minimum: 0.01)
    options.policy.backoffMaxSeconds = max(options.policy.backoffMaxSeconds, options.policy.backoffBaseSeconds)
    options.name = flags.value("--name") ?? options.name
    options.workDirectory = flags.value("--work-dir") ?? options.workDirectory
    options.scanJobs = try flags.integer("--scan-jobs", default: options.scanJobs)
    options.useCache = !flags.has("--no-cache")
    if !flags.has("--no-isolation") {
        // Each job's checks run in a child of this same executable.
        guard let executable = ScanIsolation.currentExecutable else {
            throw UsageError(description: "cannot find this a11y-audit executable (/proc/self/exe) to isolate the checks; --no-isolation runs them in process")
        }
        var isolation = ScanIsolation(executable: executable)
        isolation.defaultTimeLimitSeconds = try flags.integer("--job-seconds", default: ScanIsolation.standardTimeLimitSeconds)
        isolation.defaultMemoryLimitMB = try flags.integer("--job-memory-mb", default: ScanIsolation.standardMemoryLimitMB)
        options.isolation = isolation
    }
    if flags.value("--max-running-jobs") != nil {
        options.policy.maxRunningJobs = try flags.integer("--max-running-jobs", default: 1)
    }
    let grace = try flags.number("--grace", default: 60)
    let environment = ProcessInfo.processInfo.environment
    if let token = environment["GITHUB_TOKEN"], !token.isEmpty {
        let api = flags.value("--github-api") ?? "https://api.github.com"
        let statuses = try GitHubAPI(configuration: GitHubConfiguration(apiBaseURL: api, token: token))
        let checks = try environment["GITHUB_CHECKS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            .map { try GitHubAPI(configuration: GitHubConfiguration(apiBaseURL: api, token: $0)) }
        options.reporter = PullRequestReporter(statuses: statuses, checks: checks, publicURL: flags.value("--public-url"))
    }
    var fetch = FetchOptions()
    fetch.maxBytes = try flags.integer("--max-archive-bytes", default: fetch.maxBytes)
    let log = WorkerLog()
    let source = FetchingArchiveSource(options: fetch) { retry in
        log.event("fetch.retry", .warn, [("attempt", retry.attempt), ("delay_s", retry.delaySeconds), ("error", retry.error.description)])
    }
    let worker = Worker(options: options, source: source, log: log)
    let signals = ShutdownSignals(grace: grace, graceful: { worker.requestStop() }, immediate: { worker.abandon() })
    let summary = try withExtendedLifetime(signals) { try worker.run() }
    return summary.failed > 0 && options.mode != .forever ? .findings : .clean
}

func runStatus(_ arguments: [String]) throws -> ExitCode {
    let flags = try Flags("status", arguments, valued: ["--run"], switches: [])
    // A mistyped --run is an error, not a quiet report of the latest run instead.
    let runID = flags.value("--run") == nil ? nil : try flags.integer("--run", default: 0)
    let connection = try connect()
    let report = try PipelineStatus(connection: connection).render(runID: runID)
    print(report, terminator: "")
    return .clean
}

func runCancel(_ arguments: [String]) throws -> ExitCode {
    let flags = try Flags("cancel", arguments, valued: [], switches: [], positional: 1)
    guard let text = flags.positional.first else { throw UsageError(description: "cancel needs a job id") }
    guard let id = Int(text), id > 0 else { throw UsageError(description: "cancel needs a job id (a whole number from 1), got \"\(text)\"") }
    switch try JobQueue(connection: try connect()).cancel(jobID: id) {
    case .running?: print("job \(id) is running: its worker stops it at the next heartbeat")
    case .some: print("job \(id) cancelled")
    case nil: print("job \(id) is already finished or does not exist")
    }
    return .clean
}

func runPrune(_ arguments: [String]) throws -> ExitCode {
    let flags = try Flags("prune", arguments, valued: ["--config"], switches: [])
    let config = try OrgConfig.load(path: try flags.required("--config"))
    let removed = try OrgStore(connection: try connect()).applyRetention(org: config.org)
    print("removed \(removed) runs older than \(config.retentionDays ?? 400) days")
    return .clean
}

func runRender(_ arguments: [String]) throws -> ExitCode {
    let flags = try Flags("render", arguments, valued: ["--out", "--org", "--jobs"], switches: [])
    let output = flags.value("--out") ?? "site"
    let jobs = try flags.value("--jobs").map { text -> Int in
        guard let jobs = Int(text), (1...256).contains(jobs) else { throw UsageError(description: "render: --jobs takes a whole number from 1 to 256, not \(text)") }
        return jobs
    } ?? ProcessInfo.processInfo.activeProcessorCount
    let started = Date()
    let renderer = try SiteRenderer(settings: ConnectionSettings.fromEnvironment(), org: flags.value("--org"), output: output, workers: jobs)
    let summary = try renderer.renderAll()
    print("rendered \(summary.pages) pages into \(output) (\(summary.written) written, \(summary.unchanged) unchanged) in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
    return .clean
}
