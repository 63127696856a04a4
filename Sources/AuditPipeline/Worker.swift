import AuditModel
import AuditScanner
import AuditStore
import Foundation
import PostgresClient
import Synchronization

/// Fetches a repository archive into the worker's private work directory.
public protocol ArchiveSource: Sendable {
    /// Returns the archive's path inside `directory`. `provider` (github, gitlab, url) decides
    /// which credential goes with the request.
    func fetch(_ url: String, provider: String, into directory: String) throws -> String
}

/// Why a job failed, and whether trying again could help.
public struct JobFailure: Error, CustomStringConvertible {
    public let description: String
    public let retryable: Bool
    public init(_ description: String, retryable: Bool) { self.description = description; self.retryable = retryable }
}

public struct WorkerOptions: Sendable {
    public enum Mode: Sendable, Equatable {
        /// Until stopped.
        case forever
        /// At most one job per slot, then exit (scripts and tests).
        case once
        /// Until no job is waiting, running or due for a retry.
        case untilIdle
    }

    public var database: ConnectionSettings
    public var name: String
    public var concurrency: Int
    public var mode: Mode
    public var policy: QueuePolicy
    /// How long an idle slot sleeps between claims when no NOTIFY wakes it.
    public var pollInterval: Double
    /// Parent of the per-job temporary directories; each is removed when its job ends.
    public var workDirectory: String
    /// Files checked in parallel within one job.
    public var scanJobs: Int
    /// Keep the per-file cache in PostgreSQL.
    public var useCache: Bool
    /// Reports pull-request checks to GitHub (after each pull-request job, and every few seconds
    /// for checks still unreported: pending ones, and reports that failed).
    public var reporter: PullRequestReporter?
    /// Each job's checks in a child process with time and memory limits (one long-lived child
    /// per slot); nil runs them in this process (a crash there takes the worker down with every
    /// job it holds).
    public var isolation: ScanIsolation?

    public init(database: ConnectionSettings, name: String = WorkerOptions.defaultName(), concurrency: Int = 1, mode: Mode = .forever,
                policy: QueuePolicy = QueuePolicy(), pollInterval: Double = 5, workDirectory: String = NSTemporaryDirectory(),
                scanJobs: Int = ProcessInfo.processInfo.activeProcessorCount, useCache: Bool = true) {
        self.database = database; self.name = name; self.concurrency = max(1, concurrency); self.mode = mode
        self.policy = policy; self.pollInterval = pollInterval; self.workDirectory = workDirectory
        self.scanJobs = max(1, scanJobs); self.useCache = useCache
    }

    public static func defaultName() -> String {
        "\(ProcessInfo.processInfo.hostName):\(getpid())"
    }
}

public struct WorkerSummary: Sendable, Equatable {
    public var succeeded = 0
    public var failed = 0
    public var cancelled = 0
    public var lost = 0
    public var released = 0
}

/// Claims jobs, fetches and audits their archives, and writes the results: `a11y-audit worker`.
/// Each slot is a thread with its own connection; one more connection renews the leases of
/// every job this process holds and rescues jobs whose workers died.
public final class Worker: Sendable {
    let options: WorkerOptions
    let source: any ArchiveSource
    let log: WorkerLog
    private let state = WorkerState()
    private let reportWake = DispatchSemaphore(value: 0)

    public init(options: WorkerOptions, source: any ArchiveSource, log: WorkerLog = WorkerLog()) {
        self.options = options
        self.source = source
        self.log = log
    }

    /// Stop claiming; jobs in hand are finished.
    public func requestStop() { state.stopRequested = true }

    /// Give jobs in hand back to the queue now, without using up an attempt, and return.
    public func abandon() { state.stopRequested = true; state.abandonRequested = true }

    /// Runs until stopped, or as `options.mode` says. Throws only when the database cannot be
    /// reached at start.
    public func run() throws -> WorkerSummary {
        // Fail fast on a wrong DATABASE_URL, before starting threads.
        _ = try PostgresConnection(options.database)
        removeAbandonedJobDirectories()
        log.event("worker.started", [("worker", options.name), ("concurrency", options.concurrency), ("database", options.database.redactedTarget)])
        let children = options.isolation.map { ScanChildPool(isolation: $0, workDirectory: options.workDirectory, log: log) }
        // However the run ends, no scan child outlives it.
        defer { children?.shutdown() }
        let group = DispatchGroup()
        for slot in 0..<options.concurrency {
            group.enter()
            let isolation = children.map { IsolatedSlot(pool: $0, index: slot) }
            let thread = Thread { [self] in
                runSlot(slot, isolation: isolation)
                group.leave()
            }
            thread.name = "a11y-worker-\(slot)"
            thread.start()
        }
        let keeper = Thread { [self] in keepLeases() }
        keeper.name = "a11y-worker-leases"
        keeper.start()
        let reporterDone = DispatchGroup()
        reporterDone.enter()
        let reporterThread = Thread { [self] in reportChecks(); reporterDone.leave() }
        reporterThread.name = "a11y-worker-reporter"
        reporterThread.start()
        while group.wait(timeout: .now() + 0.2) == .timedOut {
            if state.abandonRequested { break }
        }
        if state.abandonRequested {
            // Their checks stop now: the slots still in a job see their child die and return.
            children?.shutdown()
            releaseActiveJobs()
        }
        // The reporter thread may be halfway through a check (status posted, check run not yet):
        // it finishes that check (not the rest of its sweep) and stops before the last sweep,
        // which would skip a check the thread holds.
        state.finished = true
        reportWake.signal()
        reporterDone.wait()
        // A last report of what this run's jobs decided, before the process goes.
        if let reporter = options.reporter, let connection = try? PostgresConnection(options.database) {
            _ = try? reporter.sweep(connection)
        }
        let summary = state.summary
        log.event("worker.stopped", [("worker", options.name), ("succeeded", summary.succeeded), ("failed", summary.failed),
                                     ("cancelled", summary.cancelled), ("lost", summary.lost), ("released", summary.released)])
        return summary
    }

    // MARK: Slots

    private func runSlot(_ slot: Int, isolation: IsolatedSlot?) {
        let worker = options.concurrency == 1 ? options.name : "\(options.name)/\(slot)"
        var connection: PostgresConnection?
        var consecutiveErrors = 0
        while !state.stopRequested {
            do {
                if connection == nil || connection?.isConnected == false {
                    if let existing = connection { try existing.reconnect() } else { connection = try PostgresConnection(options.database) }
                    try connection?.listen(JobQueue.jobsChannel)
                }
                guard let connection else { continue }
                let queue = JobQueue(connection: connection, policy: options.policy)
                let claimStarted = DispatchTime.now().uptimeNanoseconds
                let claimed = try queue.claim(worker: worker)
                let claimMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - claimStarted) / 1e6
                consecutiveErrors = 0
                if let job = claimed {
                    process(job, connection: connection, claimMilliseconds: claimMilliseconds, isolation: isolation)
                    if job.kind == .pr { reportWake.signal() }
                    if options.mode == .once { return }
                    continue
                }
                switch options.mode {
                case .once: return
                case .untilIdle: if try !queue.hasUnfinishedJobs() { return }
                case .forever: break
                }
                // Woken by NOTIFY when a job is enqueued; the poll catches retries coming due.
                _ = try connection.waitForNotifications(timeout: options.mode == .untilIdle ? min(options.pollInterval, 0.5) : options.pollInterval)
            } catch let error as DatabaseError where error.isConnectionLoss {
                log.event("database.unreachable", .warn, [("worker", worker), ("error", error.description)])
                Thread.sleep(forTimeInterval: 1)
                connection = nil
            } catch {
                // A statement that keeps failing (a schema older than this build: run `migrate`)
                // ends a bounded worker instead of spinning; a daemon keeps trying and logging.
                consecutiveErrors += 1
                log.event("worker.error", .error, [("worker", worker), ("error", "\(error)"), ("consecutive", consecutiveErrors)])
                if options.mode != .forever && consecutiveErrors >= 5 {
                    state.count { $0.failed += 1 }
                    return
                }
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    static let jobDirectoryPrefix = "a11y-audit-job-"

    /// Job folders of worker processes that died without cleaning up (kill -9, a power cut):
    /// their names carry the process id, and a folder whose process is gone is removed.
    /// Folders of live workers sharing the work directory are left alone.
    private func removeAbandonedJobDirectories() {
        let fileManager = FileManager.default
        guard let names = try? fileManager.contentsOfDirectory(atPath: options.workDirectory) else { return }
        for name in names where name.hasPrefix(Self.jobDirectoryPrefix) {
            guard let pid = name.dropFirst(Self.jobDirectoryPrefix.count).split(separator: "-").first.flatMap({ Int32($0) }),
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? fileManager.removeItem(atPath: options.workDirectory + "/" + name)
            log.event("workdir.cleaned", [("directory", name)])
        }
    }

    /// `claimMilliseconds`: the claim statement's round trip, logged so queue contention shows
    /// in the workers' own logs (a11y-audit-bench --only drain reads it).
    private func process(_ job: ClaimedJob, connection: PostgresConnection, claimMilliseconds: Double, isolation: IsolatedSlot?) {
        let started = Date()
        let control = state.register(job)
        defer { state.unregister(job) }
        log.event("job.claimed", [("job", job.id), ("repo", job.repositoryName), ("attempt", job.attempt), ("worker", job.worker),
                                  ("kind", job.kind.rawValue), ("ref", job.commitRef),
                                  ("claim_ms", String(format: "%.3f", claimMilliseconds))])
        let directory = options.workDirectory + "/\(Self.jobDirectoryPrefix)\(getpid())-\(job.id)-\(job.attempt)-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let audit = try JobAudit(job: job, connection: connection, source: source, directory: directory,
                                     scanJobs: options.scanJobs, useCache: options.useCache, isolation: isolation,
                                     started: started)
                .run(cancelled: { [state] in control.shouldStop || state.abandonRequested })
            if control.lost {
                log.event("job.lost", .warn, [("job", job.id), ("repo", job.repositoryName), ("attempt", job.attempt),
                                              ("reason", "lease taken away; results discarded")])
                state.count { $0.lost += 1 }
                return
            }
            if control.cancelRequested {
                try connection.retryingAfterReconnect { try JobQueue(connection: $0).acknowledgeCancellation(job) }
                log.event("job.cancelled", [("job", job.id), ("repo", job.repositoryName)])
                state.count { $0.cancelled += 1 }
                return
            }
            if let cacheError = audit.cacheError {
                log.event("cache.unsaved", .warn, [("job", job.id), ("repo", job.repositoryName), ("error", cacheError)])
            }
            let writeStarted = Date()
            var applied: HistoryWriter.Applied?
            // A deadlock or serialization failure rolled the whole transaction back: run it again.
            var outcome: CompletionOutcome = .leaseLost
            for attempt in 1...3 {
                do {
                    outcome = try connection.retryingAfterReconnect { connection in
                        try JobQueue(connection: connection, policy: options.policy).complete(job, commitSHA: audit.results.commitSHA) { connection in
                            applied = try HistoryWriter(connection: connection).write(
                                audit.results, for: job, writeMilliseconds: Int(Date().timeIntervalSince(writeStarted) * 1000))
                            if let comparison = audit.comparison {
                                try PullRequestStore(connection: connection).complete(job, comparison: comparison)
                            }
                        }
                    }
                    break
                } catch let error as DatabaseError where error.isTransient && !error.isConnectionLoss && attempt < 3 {
                    Thread.sleep(forTimeInterval: Double.random(in: 0.01...0.1))
                }
            }
            switch outcome {
            case .completed, .alreadyCompleted:
                log.event("job.succeeded", [("job", job.id), ("repo", job.repositoryName), ("attempt", job.attempt),
                                            ("duration_ms", Int(Date().timeIntervalSince(started) * 1000)),
                                            ("fetch_ms", audit.results.fetchMilliseconds), ("scan_ms", audit.results.scanMilliseconds),
                                            ("files", audit.results.filesScanned), ("parsed", audit.results.filesParsed),
                                            ("findings", audit.results.findings.count),
                                            ("new", audit.comparison?.new.count ?? applied?.new), ("fixed", audit.comparison?.fixed.count ?? applied?.fixed),
                                            ("scan_pid", audit.childPIDs.isEmpty ? nil : Set(audit.childPIDs).sorted().map(String.init).joined(separator: ","))])
                state.count { $0.succeeded += 1 }
            case .leaseLost:
                log.event("job.lost", .warn, [("job", job.id), ("repo", job.repositoryName), ("attempt", job.attempt),
                                              ("reason", "lease taken away before the results were written")])
                state.count { $0.lost += 1 }
            case .cancelled:
                log.event("job.cancelled", [("job", job.id), ("repo", job.repositoryName)])
                state.count { $0.cancelled += 1 }
            }
        } catch {
            let failure = Self.classify(error)
            if control.lost { state.count { $0.lost += 1 }; return }
            if state.abandonRequested { return }
            if control.cancelRequested {
                _ = try? connection.retryingAfterReconnect { try JobQueue(connection: $0).acknowledgeCancellation(job) }
                log.event("job.cancelled", [("job", job.id), ("repo", job.repositoryName)])
                state.count { $0.cancelled += 1 }
                return
            }
            do {
                let outcome = try connection.retryingAfterReconnect {
                    try JobQueue(connection: $0, policy: options.policy).fail(job, error: failure.description, retryable: failure.retryable)
                }
                let retry: String? = if case .retryScheduled(let delay) = outcome { String(format: "%.1f", delay) } else { nil }
                log.event("job.failed", .error, [("job", job.id), ("repo", job.repositoryName), ("attempt", job.attempt),
                                                 ("retryable", failure.retryable), ("retry_in_s", retry),
                                                 ("dead", outcome == .dead ? "true" : nil),
                                                 ("cancelled", outcome == .cancelled ? "true" : nil), ("error", failure.description)])
                state.count { $0.failed += 1 }
            } catch {
                log.event("job.fail-unrecorded", .error, [("job", job.id), ("error", "\(error)")])
            }
        }
    }

    /// Input problems (a hostile or corrupt archive, a bad repository config) fail the same way
    /// every time: no retry. Network and server trouble may pass: retry.
    static func classify(_ error: Error) -> JobFailure {
        switch error {
        case let failure as JobFailure: return failure
        case let scan as ScanError: return JobFailure(scan.description, retryable: false)
        case let database as DatabaseError: return JobFailure(database.description, retryable: true)
        default: return JobFailure(String(describing: error), retryable: true)
        }
    }

    // MARK: Leases

    /// Renews the lease of every job in hand at a third of the lease time, turns a lost lease
    /// or a cancellation request into a flag the job's slot checks, and rescues other workers'
    /// expired jobs.
    private func keepLeases() {
        var connection: PostgresConnection?
        let interval = max(0.05, options.policy.leaseSeconds / 3)
        var lastRescue = Date.distantPast
        while !state.finished {
            Thread.sleep(forTimeInterval: min(interval, 0.5))
            do {
                if connection == nil { connection = try PostgresConnection(options.database) }
                guard let connection else { continue }
                let queue = JobQueue(connection: connection, policy: options.policy)
                for control in state.activeJobs where Date().timeIntervalSince(control.lastBeat) >= interval {
                    switch try queue.heartbeat(control.job) {
                    case .held(let cancel):
                        control.lastBeat = Date()
                        if cancel { control.cancelRequested = true }
                    case .lost:
                        control.lost = true
                    }
                }
                if Date().timeIntervalSince(lastRescue) >= max(1, options.policy.leaseSeconds / 2) {
                    lastRescue = Date()
                    let rescued = try queue.rescueExpiredLeases()
                    if !rescued.isEmpty { log.event("jobs.rescued", .warn, [("jobs", rescued.map(String.init).joined(separator: ","))]) }
                }
            } catch {
                log.event("lease.error", .warn, [("error", "\(error)")])
                connection = nil
            }
        }
    }

    /// Reports pull-request checks on a thread of its own: GitHub being slow or down must never
    /// delay the heartbeats that keep this worker's leases.
    private func reportChecks() {
        guard let reporter = options.reporter else { return }
        var connection: PostgresConnection?
        while !state.finished {
            _ = reportWake.wait(timeout: .now() + 1)
            // Woken to stop: the last sweep in run() reports what is left.
            if state.finished { break }
            do {
                if connection == nil { connection = try PostgresConnection(options.database) }
                guard let connection else { continue }
                let reported = try reporter.sweep(connection) { [state] in !state.finished }
                if reported > 0 { log.event("checks.reported", [("count", reported)]) }
            } catch {
                log.event("checks.report-error", .warn, [("error", "\(error)")])
                connection = nil
            }
        }
    }

    private func releaseActiveJobs() {
        guard let connection = try? PostgresConnection(options.database) else { return }
        let queue = JobQueue(connection: connection, policy: options.policy)
        for control in state.activeJobs {
            if (try? queue.release(control.job)) == true {
                log.event("job.released", [("job", control.job.id), ("repo", control.job.repositoryName)])
                state.count { $0.released += 1 }
            }
        }
    }
}

/// A job in hand: flags set by the lease keeper, read by the job's slot.
final class JobControl: Sendable {
    let job: ClaimedJob
    private struct Flags {
        var lost = false
        var cancelRequested = false
        var lastBeat = Date()
    }
    private let flags = Mutex(Flags())

    init(job: ClaimedJob) { self.job = job }

    var lost: Bool {
        get { flags.withLock { $0.lost } }
        set { flags.withLock { $0.lost = newValue } }
    }
    var cancelRequested: Bool {
        get { flags.withLock { $0.cancelRequested } }
        set { flags.withLock { $0.cancelRequested = newValue } }
    }
    var lastBeat: Date {
        get { flags.withLock { $0.lastBeat } }
        set { flags.withLock { $0.lastBeat = newValue } }
    }
    var shouldStop: Bool { flags.withLock { $0.lost || $0.cancelRequested } }
}

/// What a worker's slots, lease keeper and signal handlers share.
final class WorkerState: Sendable {
    private struct State {
        var active: [Int: JobControl] = [:]
        var summary = WorkerSummary()
        var stopRequested = false
        var abandonRequested = false
        var finished = false
    }
    private let state = Mutex(State())

    var stopRequested: Bool {
        get { state.withLock { $0.stopRequested } }
        set { state.withLock { $0.stopRequested = newValue } }
    }
    var abandonRequested: Bool {
        get { state.withLock { $0.abandonRequested } }
        set { state.withLock { $0.abandonRequested = newValue } }
    }
    var finished: Bool {
        get { state.withLock { $0.finished } }
        set { state.withLock { $0.finished = newValue } }
    }
    var summary: WorkerSummary { state.withLock { $0.summary } }
    var activeJobs: [JobControl] { state.withLock { Array($0.active.values) } }

    func register(_ job: ClaimedJob) -> JobControl {
        let control = JobControl(job: job)
        state.withLock { $0.active[job.id] = control }
        return control
    }
    func unregister(_ job: ClaimedJob) { state.withLock { $0.active[job.id] = nil } }
    func count(_ change: (inout WorkerSummary) -> Void) { state.withLock { change(&$0.summary) } }
}
