import Foundation
import PostgresClient

public enum JobKind: String, Sendable, Codable, CaseIterable { case nightly, manual, pr }

public enum JobState: String, Sendable, Codable, CaseIterable {
    case queued, running, succeeded, failed, dead, cancelled
    public var isTerminal: Bool { self == .succeeded || self == .dead || self == .cancelled }
}

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

/// The job queue in PostgreSQL: claim with FOR UPDATE SKIP LOCKED by priority then age, leases
/// kept alive by heartbeats, expired leases rescued, retries with exponential backoff and jitter,
/// cancellation, and results written only by the lease holder (see DESIGN.md, Jobs and the queue).
public struct JobQueue {
    /// Workers LISTEN here; enqueueing NOTIFYs it (delivered when the enqueueing transaction commits).
    public static let jobsChannel = "a11y_audit_jobs"
    /// Finished jobs and runs, for the dashboard's incremental re-render.
    public static let doneChannel = "a11y_audit_done"
    /// An arbitrary constant: serialises claims only when a global running-job limit is set.
    static let claimLimitLockKey = 0x0A11_C1A1

    public let connection: PostgresConnection
    public let policy: QueuePolicy

    public init(connection: PostgresConnection, policy: QueuePolicy = QueuePolicy()) {
        self.connection = connection
        self.policy = policy
    }

    // MARK: Enqueue

    /// Returns the new job's id, or nil when the same repository, commit and kind is already
    /// waiting (the partial unique index decides, race-free).
    @discardableResult
    public func enqueue(_ request: JobRequest) throws -> Int? {
        let rows = try connection.query("""
            INSERT INTO jobs (run_id, repository_id, kind, commit_ref, archive_url, priority, max_attempts,
                              pr_number, base_sha, base_ref, base_archive_url, time_limit_seconds, memory_limit_mb)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
            ON CONFLICT (repository_id, commit_ref, kind) WHERE state IN ('queued', 'failed') DO NOTHING
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

    // MARK: Claim

    /// A newer job of the same repository, commit and kind is waiting: a retry or a return to
    /// the queue would be a second waiting twin (the partial unique index forbids it).
    static let waitingTwin = """
        EXISTS (SELECT 1 FROM jobs twin WHERE twin.repository_id = jobs.repository_id AND twin.commit_ref = jobs.commit_ref
                AND twin.kind = jobs.kind AND twin.state IN ('queued', 'failed') AND twin.id <> jobs.id)
        """

    public static let claimSQL = """
        WITH next AS (
            SELECT id FROM jobs
            WHERE state IN ('queued', 'failed') AND run_after <= now()
            ORDER BY priority DESC, id
            LIMIT 1
            FOR UPDATE SKIP LOCKED)
        UPDATE jobs SET state = 'running', attempt = jobs.attempt + 1, locked_by = $1,
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
                let running = try connection.query("SELECT count(*) AS n FROM jobs WHERE state = 'running'",
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

    // MARK: While running

    /// Extends the lease; says whether cancellation was requested.
    public func heartbeat(_ job: ClaimedJob) throws -> HeartbeatResult {
        let rows = try connection.query("""
            UPDATE jobs SET lease_expires_at = now() + make_interval(secs => $4), heartbeat_at = now()
            WHERE id = $1 AND locked_by = $2 AND attempt = $3 AND state = 'running'
            RETURNING cancel_requested
            """, [.int(job.id), .text(job.worker), .int(job.attempt), .double(policy.leaseSeconds)],
            purpose: "extend the lease of job \(job.id)")
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
                try markCancelled(job, in: connection)
                return .cancelled
            }
            try write(connection)
            try connection.query("""
                UPDATE jobs SET state = 'succeeded', finished_at = now(), lease_expires_at = NULL, commit_sha = coalesce($2, commit_sha)
                WHERE id = $1
                """, [.int(job.id), .optional(commitSHA)], purpose: "mark job \(job.id) succeeded")
            try finishRunIfDone(job.runID, in: connection)
            try connection.notify(Self.doneChannel, payload: "job:\(job.id)")
            return .completed
        }
    }

    /// Records a failed attempt: back to the queue after a backoff while attempts remain and the
    /// error is worth retrying, else `dead` with the error kept.
    public func fail(_ job: ClaimedJob, error: String, retryable: Bool) throws -> FailureOutcome {
        try connection.transaction(purpose: "record the failure of job \(job.id)") { connection in
            let rows = try connection.query("""
                UPDATE jobs SET
                    -- A waiting twin (same repository, commit, kind) makes a retry pointless and
                    -- would break the unique index: the failed job is cancelled instead.
                    state = CASE WHEN cancel_requested OR \(Self.waitingTwin) THEN 'cancelled'
                                 WHEN $4 AND attempt < max_attempts THEN 'failed' ELSE 'dead' END,
                    run_after = now() + make_interval(secs => least($6::float8, $5::float8 * power(2, attempt - 1)) * (0.5 + random())),
                    last_error = $3,
                    errors = errors || jsonb_build_array(jsonb_build_object(
                        'attempt', attempt, 'worker', $2::text, 'error', $3::text, 'at', now())),
                    locked_by = NULL, lease_expires_at = NULL,
                    finished_at = CASE WHEN $4 AND attempt < max_attempts AND NOT cancel_requested AND NOT \(Self.waitingTwin) THEN NULL ELSE now() END
                WHERE id = $1 AND locked_by = $2 AND attempt = $7 AND state = 'running'
                RETURNING state, extract(epoch FROM run_after - now()) AS delay
                """, [.int(job.id), .text(job.worker), .text(error), .bool(retryable), .double(policy.backoffBaseSeconds),
                      .double(policy.backoffMaxSeconds), .int(job.attempt)],
                purpose: "record the failure of job \(job.id)")
            guard let row = rows.first else { return .leaseLost }
            let state = row.string("state")
            if state == JobState.dead.rawValue || state == JobState.cancelled.rawValue {
                try settleCheck(jobID: job.id, as: state == JobState.dead.rawValue ? "error" : "cancelled", in: connection)
                try finishRunIfDone(job.runID, in: connection)
                try connection.notify(Self.doneChannel, payload: "job:\(job.id)")
                return state == JobState.dead.rawValue ? .dead : .cancelled
            }
            return .retryScheduled(inSeconds: row.double("delay") ?? 0)
        }
    }

    /// Gives a job back without using up an attempt (graceful shutdown before it finished).
    @discardableResult
    public func release(_ job: ClaimedJob) throws -> Bool {
        try connection.transaction(purpose: "release job \(job.id)") { connection in
            let rows = try connection.query("""
                UPDATE jobs SET state = CASE WHEN \(Self.waitingTwin) THEN 'cancelled' ELSE 'queued' END,
                    attempt = attempt - 1, locked_by = NULL, lease_expires_at = NULL, run_after = now(),
                    finished_at = CASE WHEN \(Self.waitingTwin) THEN now() END
                WHERE id = $1 AND locked_by = $2 AND attempt = $3 AND state = 'running'
                RETURNING state
                """, [.int(job.id), .text(job.worker), .int(job.attempt)], purpose: "release job \(job.id)")
            guard let state = rows.first?.string("state") else { return false }
            if state == JobState.cancelled.rawValue {
                // A waiting twin does the work instead; this job was perhaps the last of its run.
                try settleCheck(jobID: job.id, as: "cancelled", in: connection)
                try finishRunIfDone(job.runID, in: connection)
                try connection.notify(Self.doneChannel, payload: "job:\(job.id)")
            } else {
                try connection.notify(Self.jobsChannel, payload: String(job.id))
            }
            return true
        }
    }

    /// The worker saw the cancellation request and stopped.
    public func acknowledgeCancellation(_ job: ClaimedJob) throws {
        try connection.transaction(purpose: "cancel job \(job.id)") { connection in
            let rows = try connection.query("""
                SELECT 1 FROM jobs WHERE id = $1 AND locked_by = $2 AND attempt = $3 AND state = 'running' FOR UPDATE
                """, [.int(job.id), .text(job.worker), .int(job.attempt)], purpose: "lock job \(job.id) to cancel it")
            if !rows.isEmpty { try markCancelled(job, in: connection) }
        }
    }

    private func markCancelled(_ job: ClaimedJob, in connection: PostgresConnection) throws {
        try connection.query("""
            UPDATE jobs SET state = 'cancelled', finished_at = now(), lease_expires_at = NULL WHERE id = $1
            """, [.int(job.id)], purpose: "mark job \(job.id) cancelled")
        try settleCheck(jobID: job.id, as: "cancelled", in: connection)
        try finishRunIfDone(job.runID, in: connection)
    }

    /// A pull request's check whose job will never produce a verdict says so (and is reported),
    /// instead of staying pending on GitHub.
    func settleCheck(jobID: Int, as state: String, in connection: PostgresConnection) throws {
        try connection.query("""
            UPDATE pr_checks SET state = $2, updated_at = now() WHERE job_id = $1 AND state = 'pending'
            """, [.int(jobID), .text(state)], purpose: "settle the check of job \(jobID)")
    }

    // MARK: Housekeeping

    /// Cancels a job: at once if it is waiting, or by asking its worker (seen at the next
    /// heartbeat) if it runs. Returns the state it was in, or nil if it was already finished.
    @discardableResult
    public func cancel(jobID: Int) throws -> JobState? {
        try connection.transaction(purpose: "cancel job \(jobID)") { connection in
            let rows = try connection.query("""
                UPDATE jobs SET
                    state = CASE WHEN state = 'running' THEN state ELSE 'cancelled' END,
                    cancel_requested = (state = 'running'),
                    finished_at = CASE WHEN state = 'running' THEN finished_at ELSE now() END
                WHERE id = $1 AND state IN ('queued', 'failed', 'running')
                RETURNING (SELECT state FROM jobs old WHERE old.id = $1) AS previous, run_id
                """, [.int(jobID)], purpose: "cancel job \(jobID)")
            guard let row = rows.first else { return nil }
            let previous = row.string("previous").flatMap(JobState.init(rawValue:))
            if previous != .running {
                try settleCheck(jobID: jobID, as: "cancelled", in: connection)
                try finishRunIfDone(row.int("run_id"), in: connection)
            }
            return previous
        }
    }

    /// Returns jobs whose lease expired (their worker died or hung) to the queue with a backoff,
    /// or marks them dead when no attempt is left. Safe to run from every worker at once.
    @discardableResult
    public func rescueExpiredLeases() throws -> [Int] {
        let rows = try connection.query("""
            UPDATE jobs SET
                state = CASE WHEN cancel_requested OR \(Self.waitingTwin) THEN 'cancelled'
                             WHEN attempt < max_attempts THEN 'failed' ELSE 'dead' END,
                run_after = now() + make_interval(secs => least($2::float8, $1::float8 * power(2, attempt - 1)) * (0.5 + random())),
                last_error = 'lease expired: worker ' || coalesce(locked_by, '?') || ' stopped renewing it (crashed, killed or hung)',
                errors = errors || jsonb_build_array(jsonb_build_object(
                    'attempt', attempt, 'worker', locked_by, 'error', 'lease expired', 'at', now())),
                locked_by = NULL, lease_expires_at = NULL,
                finished_at = CASE WHEN attempt < max_attempts AND NOT cancel_requested AND NOT \(Self.waitingTwin) THEN NULL ELSE now() END
            WHERE id IN (SELECT id FROM jobs WHERE state = 'running' AND lease_expires_at < now() FOR UPDATE SKIP LOCKED)
            RETURNING id, run_id, state
            """, [.double(policy.backoffBaseSeconds), .double(policy.backoffMaxSeconds)], purpose: "rescue jobs with expired leases")
        let settled = rows.filter { $0.string("state") == JobState.dead.rawValue || $0.string("state") == JobState.cancelled.rawValue }
        for row in settled {
            guard let id = row.int("id") else { continue }
            try settleCheck(jobID: id, as: row.string("state") == JobState.dead.rawValue ? "error" : "cancelled", in: connection)
        }
        let deadRuns = Set(settled.compactMap { $0.int("run_id") })
        for run in deadRuns.sorted() {
            try connection.transaction(purpose: "finish run \(run)") { try finishRunIfDone(run, in: $0) }
        }
        if !rows.isEmpty { try connection.notify(Self.jobsChannel, payload: "rescued") }
        return rows.compactMap { $0.int("id") }
    }

    /// Marks a run finished once none of its jobs can still run: `failed` when a job is dead,
    /// `cancelled` when every job was cancelled (nothing was audited, so it did not succeed),
    /// else `succeeded` (a run with no jobs too).
    ///
    /// Fast path, taken by every job but the last few of a run: share-lock one other unfinished
    /// job of the run that no transaction is changing (SKIP LOCKED). Whoever finishes that job
    /// later has to wait for this transaction's commit first, and checks again after it, so this
    /// one need not. Without it, every completion of a run queued behind one lock on the run row
    /// until its commit: with 32 workers the lock wait was most of a job's time (measured in
    /// docs/benchmarks.md, "Queue at organisation scale").
    ///
    /// Otherwise lock the run row, so of two jobs finishing at once the second sees the first's
    /// commit and closes the run. The lock is NO KEY UPDATE: it must not wait for the KEY SHARE
    /// locks that the foreign keys of other jobs' summaries hold on the same run, or two
    /// completions deadlock.
    func finishRunIfDone(_ runID: Int?, in connection: PostgresConnection) throws {
        guard let runID else { return }
        let unfinished = try connection.query("""
            SELECT id FROM jobs WHERE run_id = $1 AND state IN ('queued', 'running', 'failed') LIMIT 1 FOR SHARE SKIP LOCKED
            """, [.int(runID)], purpose: "find an unfinished job of run \(runID)")
        if !unfinished.isEmpty { return }
        try connection.query("SELECT id FROM runs WHERE id = $1 FOR NO KEY UPDATE", [.int(runID)], purpose: "lock run \(runID)")
        // A finished run is rolled up in the same statement: its counts per team, rule and
        // severity into run_counts, its totals onto the run, and the per-job count rows that
        // recorded only an unchanged open count deleted (every sub-statement reads the same
        // snapshot, so the roll-up sees the rows the delete removes).
        let rows = try connection.query("""
            WITH finished AS (
                UPDATE runs SET finished_at = now(), counts_rolled_up = true,
                    state = CASE WHEN EXISTS (SELECT 1 FROM jobs WHERE run_id = $1 AND state = 'dead') THEN 'failed'
                                 WHEN EXISTS (SELECT 1 FROM jobs WHERE run_id = $1 AND state = 'cancelled')
                                      AND NOT EXISTS (SELECT 1 FROM jobs WHERE run_id = $1 AND state = 'succeeded') THEN 'cancelled'
                                 ELSE 'succeeded' END,
                    totals = (SELECT jsonb_build_object(
                                 'jobs', (SELECT coalesce(jsonb_object_agg(state, n), '{}')
                                          FROM (SELECT state, count(*) AS n FROM jobs WHERE run_id = $1 GROUP BY state) j),
                                 'open', coalesce(sum(findings_open), 0), 'new', coalesce(sum(findings_new), 0),
                                 'fixed', coalesce(sum(findings_fixed), 0), 'fetch_ms', coalesce(sum(fetch_ms), 0),
                                 'scan_ms', coalesce(sum(scan_ms), 0), 'write_ms', coalesce(sum(write_ms), 0))
                              FROM job_summaries WHERE run_id = $1)
                WHERE id = $1 AND state = 'running'
                  AND NOT EXISTS (SELECT 1 FROM jobs WHERE run_id = $1 AND state IN ('queued', 'running', 'failed'))
                RETURNING id, state
            ), rolled AS (
                INSERT INTO run_counts (run_id, team_id, rule_id, kind, severity, open_count, new_count, fixed_count)
                SELECT c.run_id, c.team_id, c.rule_id, max(c.kind), c.severity, sum(c.open_count), sum(c.new_count), sum(c.fixed_count)
                FROM job_summary_counts c JOIN finished f ON f.id = c.run_id
                GROUP BY c.run_id, c.team_id, c.rule_id, c.severity
            ), compacted AS (
                DELETE FROM job_summary_counts c USING finished f
                WHERE c.run_id = f.id AND c.new_count = 0 AND c.fixed_count = 0
            )
            SELECT state FROM finished
            """, [.int(runID)], purpose: "finish run \(runID)")
        if !rows.isEmpty { try connection.notify(Self.doneChannel, payload: "run:\(runID)") }
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
