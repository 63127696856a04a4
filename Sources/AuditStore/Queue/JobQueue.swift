import Foundation
import PostgresClient

/// A claimed job, as the worker that holds it sees it. `attempt` and `worker` together are the
/// lease: every later write checks both, so a worker whose lease was taken away writes nothing.
public struct ClaimedJob: Sendable, Equatable {
    public let id: Int
    public let runID: Int?
    public let repositoryID: Int
    public let repositoryName: String
    public let provider: String
    public let kind: JobKind
    public let commitRef: String
    public let archiveURL: String
    public let attempt: Int
    public let maxAttempts: Int
    public let priority: Int
    public let prNumber: Int?
    public let baseSHA: String?
    public let baseRef: String?
    public let baseArchiveURL: String?
    public let worker: String
    /// The organisation's limits for the job's checks; nil: the worker's defaults.
    public var timeLimitSeconds: Int? = nil
    public var memoryLimitMB: Int? = nil
}

public struct JobRequest: Sendable {
    public var runID: Int?
    public var repositoryID: Int
    public var kind: JobKind
    public var commitRef: String
    public var archiveURL: String
    public var priority: Int
    public var maxAttempts: Int
    public var prNumber: Int?
    public var baseSHA: String?
    public var baseRef: String?
    public var baseArchiveURL: String?
    public var timeLimitSeconds: Int?
    public var memoryLimitMB: Int?

    public init(runID: Int?, repositoryID: Int, kind: JobKind, commitRef: String, archiveURL: String,
                priority: Int = 0, maxAttempts: Int = 5, prNumber: Int? = nil, baseSHA: String? = nil, baseRef: String? = nil,
                baseArchiveURL: String? = nil, timeLimitSeconds: Int? = nil, memoryLimitMB: Int? = nil) {
        self.timeLimitSeconds = timeLimitSeconds; self.memoryLimitMB = memoryLimitMB
        self.runID = runID; self.repositoryID = repositoryID; self.kind = kind; self.commitRef = commitRef
        self.archiveURL = archiveURL; self.priority = priority; self.maxAttempts = maxAttempts
        self.prNumber = prNumber; self.baseSHA = baseSHA; self.baseRef = baseRef; self.baseArchiveURL = baseArchiveURL
    }
}

/// How long a lease lasts and how retries back off.
public struct QueuePolicy: Sendable {
    public var leaseSeconds: Double
    /// The first retry waits about this long; each further retry doubles it (with jitter of
    /// ±50%, so failed jobs of one outage do not all come back at the same instant).
    public var backoffBaseSeconds: Double
    public var backoffMaxSeconds: Double
    /// Jobs running at once across all workers; nil: no limit beyond the workers' own.
    public var maxRunningJobs: Int?

    public init(leaseSeconds: Double = 300, backoffBaseSeconds: Double = 30, backoffMaxSeconds: Double = 3600,
                maxRunningJobs: Int? = nil) {
        self.leaseSeconds = leaseSeconds; self.backoffBaseSeconds = backoffBaseSeconds
        self.backoffMaxSeconds = backoffMaxSeconds; self.maxRunningJobs = maxRunningJobs
    }
}

public enum HeartbeatResult: Sendable, Equatable {
    case held(cancelRequested: Bool)
    /// The job is no longer ours (rescued after the lease expired, or cancelled and released).
    case lost
}

public enum CompletionOutcome: Sendable, Equatable {
    case completed
    /// A retry of a completion whose first COMMIT went through (the reply was lost).
    case alreadyCompleted
    /// Someone else owns the job now; nothing was written.
    case leaseLost
    /// Cancellation was asked for while the job ran; nothing was written, the job is cancelled.
    case cancelled
}

public enum FailureOutcome: Sendable, Equatable {
    case retryScheduled(inSeconds: Double)
    case dead
    /// Cancellation was asked for, or a newer job of the same repository, commit and kind is
    /// already waiting: no retry.
    case cancelled
    case leaseLost
}

/// A job that reached a terminal state, as the finished hooks see it.
public struct FinishedJob: Sendable, Equatable {
    public var id: Int
    public var runID: Int?
    public var state: JobState
}

/// Called inside the transaction that finished the jobs (sorted by run), so whatever the hook
/// settles commits with them or not at all.
public typealias JobFinishedHook = @Sendable ([FinishedJob], PostgresConnection) throws -> Void

/// The job queue in PostgreSQL: claim with FOR UPDATE SKIP LOCKED by priority then age, leases
/// kept alive by heartbeats, expired leases rescued, retries with exponential backoff and jitter,
/// cancellation, and results written only by the lease holder (see DESIGN.md, Jobs and the queue).
/// After the claim, every change of state is a `JobTransition` applied by `apply(_:to:in:)`.
/// What a finished job means to anything else (its run, a pull-request check) is up to the
/// finished hooks: the queue knows neither.
public struct JobQueue {
    /// Workers LISTEN here; enqueueing NOTIFYs it (delivered when the enqueueing transaction commits).
    public static let jobsChannel = "a11y_audit_jobs"
    /// Finished jobs and runs, for the dashboard's incremental re-render.
    public static let doneChannel = "a11y_audit_done"
    /// An arbitrary constant: serialises claims only when a global running-job limit is set.
    static let claimLimitLockKey = 0x0A11_C1A1

    public let connection: PostgresConnection
    public let policy: QueuePolicy
    let finishedHooks: [JobFinishedHook]

    public init(connection: PostgresConnection, policy: QueuePolicy = QueuePolicy(), finishedHooks: [JobFinishedHook]) {
        self.connection = connection
        self.policy = policy
        self.finishedHooks = finishedHooks
    }

    // MARK: Enqueue

    static let onWaitingConflict = "ON CONFLICT (repository_id, commit_ref, kind) WHERE state IN \(JobState.sqlList(JobState.waiting)) DO NOTHING"

    /// Returns the new job's id, or nil when the same repository, commit and kind is already
    /// waiting (the partial unique index decides, race-free).
    @discardableResult
    public func enqueue(_ request: JobRequest) throws -> Int? {
        let rows = try connection.query("""
            INSERT INTO jobs (run_id, repository_id, kind, commit_ref, archive_url, priority, max_attempts,
                              pr_number, base_sha, base_ref, base_archive_url, time_limit_seconds, memory_limit_mb)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
            \(Self.onWaitingConflict)
            RETURNING id
            """, [.optional(request.runID), .int(request.repositoryID), .text(request.kind.rawValue), .text(request.commitRef),
                  .text(request.archiveURL), .int(request.priority), .int(request.maxAttempts), .optional(request.prNumber),
                  .optional(request.baseSHA), .optional(request.baseRef), .optional(request.baseArchiveURL),
                  .optional(request.timeLimitSeconds), .optional(request.memoryLimitMB)],
            purpose: "enqueue a job for repository \(request.repositoryID) at \(request.commitRef)")
        guard let id = rows.first?.int("id") else { return nil }
        try connection.notify(Self.jobsChannel, payload: String(id))
        return id
    }

    /// One job of `kind` per target, in one statement (a night's run). Targets already waiting
    /// for the same commit are skipped. Returns the new jobs' ids.
    public func enqueue(runID: Int, kind: JobKind, targets: [(repositoryID: Int, commitRef: String, archiveURL: String)],
                        maxAttempts: Int, timeLimitSeconds: Int?, memoryLimitMB: Int?) throws -> [Int] {
        let rows = try connection.query("""
            INSERT INTO jobs (run_id, repository_id, kind, commit_ref, archive_url, priority, max_attempts,
                              time_limit_seconds, memory_limit_mb)
            SELECT $1, repository_id, $2, commit_ref, archive_url, 0, $3, $7::integer, $8::integer
            FROM unnest($4::bigint[], $5::text[], $6::text[]) AS t (repository_id, commit_ref, archive_url)
            \(Self.onWaitingConflict)
            RETURNING id
            """, [.int(runID), .text(kind.rawValue), .int(maxAttempts), .intArray(targets.map(\.repositoryID)),
                  .textArray(targets.map(\.commitRef)), .textArray(targets.map(\.archiveURL)),
                  .optional(timeLimitSeconds), .optional(memoryLimitMB)],
            purpose: "enqueue the jobs of run \(runID)")
        try connection.notify(Self.jobsChannel, payload: "run:\(runID)")
        return rows.compactMap { $0.int("id") }
    }

    // MARK: Claim

    public static let claimSQL = """
        WITH next AS (
            SELECT id FROM jobs
            WHERE state IN \(JobState.sqlList(JobState.waiting)) AND run_after <= now()
            ORDER BY priority DESC, id
            LIMIT 1
            FOR UPDATE SKIP LOCKED)
        UPDATE jobs SET state = \(JobState.running.sql), attempt = jobs.attempt + 1, locked_by = $1,
                        lease_expires_at = now() + make_interval(secs => $2), heartbeat_at = now(), started_at = now()
        FROM next WHERE jobs.id = next.id
        RETURNING jobs.id, jobs.run_id, jobs.repository_id, jobs.kind, jobs.commit_ref, jobs.archive_url, jobs.attempt,
                  jobs.max_attempts, jobs.priority, jobs.pr_number, jobs.base_sha, jobs.base_ref, jobs.base_archive_url,
                  jobs.time_limit_seconds, jobs.memory_limit_mb,
                  (SELECT name FROM repositories r WHERE r.id = jobs.repository_id) AS repository_name,
                  (SELECT provider FROM repositories r WHERE r.id = jobs.repository_id) AS provider
        """

    /// Takes the most urgent runnable job, or returns nil when there is none (or the global
    /// running-job limit is reached). Concurrent claimers never get the same job: SKIP LOCKED
    /// passes over rows another claim is taking.
    public func claim(worker: String) throws -> ClaimedJob? {
        let rows: PostgresRows
        if let limit = policy.maxRunningJobs {
            rows = try connection.transaction(purpose: "claim a job") { connection -> PostgresRows in
                try connection.query("SELECT pg_advisory_xact_lock($1)", [.int(Self.claimLimitLockKey)], purpose: "serialise limited claims")
                let running = try connection.query("SELECT count(*) AS n FROM jobs WHERE state = \(JobState.running.sql)",
                                                   purpose: "count running jobs").first?.int("n") ?? 0
                guard running < limit else { return try connection.query("SELECT 1 WHERE false", purpose: "claim nothing") }
                return try connection.query(Self.claimSQL, [.text(worker), .double(policy.leaseSeconds)], purpose: "claim a job")
            }
        } else {
            rows = try connection.query(Self.claimSQL, [.text(worker), .double(policy.leaseSeconds)], purpose: "claim a job")
        }
        guard let row = rows.first, let id = row.int("id"), let repositoryID = row.int("repository_id"),
              let kind = row.string("kind").flatMap(JobKind.init(rawValue:)), let attempt = row.int("attempt") else { return nil }
        return ClaimedJob(
            id: id, runID: row.int("run_id"), repositoryID: repositoryID, repositoryName: row.string("repository_name") ?? "",
            provider: row.string("provider") ?? "url", kind: kind, commitRef: row.string("commit_ref") ?? "",
            archiveURL: row.string("archive_url") ?? "", attempt: attempt, maxAttempts: row.int("max_attempts") ?? 1,
            priority: row.int("priority") ?? 0, prNumber: row.int("pr_number"), baseSHA: row.string("base_sha"),
            baseRef: row.string("base_ref"), baseArchiveURL: row.string("base_archive_url"), worker: worker,
            timeLimitSeconds: row.int("time_limit_seconds"), memoryLimitMB: row.int("memory_limit_mb"))
    }

    // MARK: The transition primitive

    /// Applies `transition` to the jobs `selection` still matches, in one statement, and hands
    /// the jobs it finished to the finished hooks. Call it inside a transaction, so the hooks'
    /// writes commit with the change. Returns the jobs changed (none: the selection no longer
    /// matched, e.g. the lease was lost).
    @discardableResult
    func apply(_ transition: JobTransition, to selection: JobSelection, in connection: PostgresConnection,
               purpose: String) throws -> [TransitionedJob] {
        var parameters = SQLParameters()
        let condition = selection.condition(&parameters)
        let assignments = transition.assignments(&parameters, policy: policy)
        // Only a failed attempt has a retry delay to report.
        let delay: String
        if case .failAttempt = transition { delay = ", extract(epoch FROM run_after - now())::float8 AS delay" } else { delay = "" }
        let rows = try connection.query("""
            UPDATE jobs SET \(assignments)
            WHERE \(condition)
            RETURNING id, run_id, state\(delay)
            """, parameters.values, purpose: purpose)
        let changed = rows.compactMap { row -> TransitionedJob? in
            guard let id = row.int("id"), let state = row.string("state").flatMap(JobState.init(rawValue:)) else { return nil }
            return TransitionedJob(id: id, runID: row.int("run_id"), state: state, retryDelay: row.double("delay") ?? 0)
        }
        // Sorted by run: two transactions finishing jobs of the same runs lock the runs in one order.
        let finished = changed.filter(\.state.isTerminal).map { FinishedJob(id: $0.id, runID: $0.runID, state: $0.state) }
            .sorted { ($0.runID ?? 0, $0.id) < ($1.runID ?? 0, $1.id) }
        if !finished.isEmpty {
            for hook in finishedHooks { try hook(finished, connection) }
            if finished.count == 1 {
                try connection.notify(Self.doneChannel, payload: "job:\(finished[0].id)")
            } else {
                try connection.query("SELECT pg_notify($1, 'job:' || id) FROM unnest($2::bigint[]) AS id",
                                     [.text(Self.doneChannel), .intArray(finished.map(\.id))], purpose: "announce finished jobs")
            }
        }
        if changed.contains(where: { $0.state == .queued }) { try connection.notify(Self.jobsChannel, payload: "released") }
        return changed
    }

    // MARK: While running

    /// Extends the lease; says whether cancellation was requested.
    public func heartbeat(_ job: ClaimedJob) throws -> HeartbeatResult {
        var parameters = SQLParameters()
        let held = JobSelection.leaseHeld(job).condition(&parameters)
        let lease = parameters.bind(.double(policy.leaseSeconds))
        let rows = try connection.query("""
            UPDATE jobs SET lease_expires_at = now() + make_interval(secs => \(lease)), heartbeat_at = now()
            WHERE \(held)
            RETURNING cancel_requested
            """, parameters.values, purpose: "extend the lease of job \(job.id)")
        guard let row = rows.first else { return .lost }
        return .held(cancelRequested: row.bool("cancel_requested") ?? false)
    }

    /// Writes a job's results with `write` and marks it succeeded, in one transaction, only if
    /// this worker still holds the job. An expired lease that nobody has rescued yet still counts
    /// as held: the row lock taken here makes the rescuer wait and then skip the finished job.
    public func complete(_ job: ClaimedJob, commitSHA: String? = nil,
                         write: (PostgresConnection) throws -> Void) throws -> CompletionOutcome {
        try connection.transaction(purpose: "complete job \(job.id)") { connection in
            let rows = try connection.query("""
                SELECT state, locked_by, attempt, cancel_requested FROM jobs WHERE id = $1 FOR UPDATE
                """, [.int(job.id)], purpose: "lock job \(job.id) to complete it")
            guard let row = rows.first else { return .leaseLost }
            let holds = row.string("locked_by") == job.worker && row.int("attempt") == job.attempt
            if row.string("state") == JobState.succeeded.rawValue && holds { return .alreadyCompleted }
            guard row.string("state") == JobState.running.rawValue, holds else { return .leaseLost }
            if row.bool("cancel_requested") == true {
                try apply(.cancel(reason: nil), to: .leaseHeld(job), in: connection, purpose: "mark job \(job.id) cancelled")
                return .cancelled
            }
            try write(connection)
            let changed = try apply(.succeed(commitSHA: commitSHA), to: .leaseHeld(job), in: connection,
                                    purpose: "mark job \(job.id) succeeded")
            guard !changed.isEmpty else {
                throw DatabaseError.unexpectedResult(purpose: "complete job \(job.id)", reason: "the locked job no longer matched its lease")
            }
            return .completed
        }
    }

    /// Records a failed attempt: back to the queue after a backoff while attempts remain and the
    /// error is worth retrying, else `dead` with the error kept.
    public func fail(_ job: ClaimedJob, error: String, retryable: Bool) throws -> FailureOutcome {
        try connection.transaction(purpose: "record the failure of job \(job.id)") { connection in
            guard let changed = try apply(.failAttempt(.message(error), retryable: retryable), to: .leaseHeld(job), in: connection,
                                          purpose: "record the failure of job \(job.id)").first else { return .leaseLost }
            switch changed.state {
            case .dead: return .dead
            case .cancelled: return .cancelled
            default: return .retryScheduled(inSeconds: changed.retryDelay)
            }
        }
    }

    /// Gives a job back without using up an attempt (graceful shutdown before it finished).
    @discardableResult
    public func release(_ job: ClaimedJob) throws -> Bool {
        try connection.transaction(purpose: "release job \(job.id)") { connection in
            try !apply(.release, to: .leaseHeld(job), in: connection, purpose: "release job \(job.id)").isEmpty
        }
    }

    /// The worker saw the cancellation request and stopped.
    public func acknowledgeCancellation(_ job: ClaimedJob) throws {
        try connection.transaction(purpose: "cancel job \(job.id)") { connection in
            try apply(.cancel(reason: nil), to: .leaseHeld(job), in: connection, purpose: "mark job \(job.id) cancelled")
        }
    }

    // MARK: Housekeeping

    /// Cancels a job: at once if it is waiting, or by asking its worker (seen at the next
    /// heartbeat) if it runs. Returns the state it was in, or nil if it was already finished.
    @discardableResult
    public func cancel(jobID: Int) throws -> JobState? {
        try connection.transaction(purpose: "cancel job \(jobID)") { connection in
            let previous = try connection.query("SELECT state FROM jobs WHERE id = $1 FOR UPDATE", [.int(jobID)],
                                                purpose: "lock job \(jobID) to cancel it").first?.string("state").flatMap(JobState.init(rawValue:))
            switch previous {
            case .running?:
                try connection.query("UPDATE jobs SET cancel_requested = true WHERE id = $1", [.int(jobID)],
                                     purpose: "ask the worker of job \(jobID) to stop")
                return .running
            case .some(let state) where JobState.waiting.contains(state):
                try apply(.cancel(reason: nil), to: .waiting(jobID: jobID), in: connection, purpose: "cancel job \(jobID)")
                return state
            default:
                return nil
            }
        }
    }

    /// Cancels the waiting jobs of `kind` of these repositories: a newer job supersedes them.
    /// Returns how many. Call it inside the transaction that enqueues what supersedes them.
    @discardableResult
    public func supersedeWaiting(kind: JobKind, repositoryIDs: [Int], reason: String, in connection: PostgresConnection) throws -> Int {
        try apply(.cancel(reason: reason), to: .waitingOfKind(kind, repositoryIDs: repositoryIDs), in: connection,
                  purpose: "supersede waiting \(kind.rawValue) jobs").count
    }

    /// The state of a job, or nil if there is no such job.
    public func state(ofJob jobID: Int) throws -> JobState? {
        try connection.query("SELECT state FROM jobs WHERE id = $1", [.int(jobID)], purpose: "look up job \(jobID)")
            .first?.string("state").flatMap(JobState.init(rawValue:))
    }

    /// Whether any job is still to be claimed or being worked on (`worker --until-idle`).
    public func hasUnfinishedJobs() throws -> Bool {
        try !connection.query("SELECT 1 FROM jobs WHERE state IN \(JobState.sqlList(JobState.unfinished)) LIMIT 1",
                              purpose: "check whether jobs are left").isEmpty
    }

    /// Unfinished pull-request jobs of `prNumber` at another head than `headSHA`.
    public func unfinishedPullRequestJobs(repositoryID: Int, prNumber: Int, otherThan headSHA: String) throws -> [Int] {
        try connection.query("""
            SELECT id FROM jobs WHERE repository_id = $1 AND kind = $4 AND pr_number = $2 AND commit_ref <> $3
              AND state IN \(JobState.sqlList(JobState.unfinished))
            """, [.int(repositoryID), .int(prNumber), .text(headSHA), .text(JobKind.pr.rawValue)],
            purpose: "find older checks of pull request #\(prNumber)").compactMap { $0.int("id") }
    }

    /// Counts of jobs by state (for `status` and `/metrics`).
    public func depth() throws -> [JobState: Int] {
        var counts: [JobState: Int] = [:]
        for row in try connection.query("SELECT state, count(*) AS n FROM jobs GROUP BY state", purpose: "count jobs by state") {
            if let state = row.string("state").flatMap(JobState.init(rawValue:)) { counts[state] = row.int("n") ?? 0 }
        }
        return counts
    }
}
