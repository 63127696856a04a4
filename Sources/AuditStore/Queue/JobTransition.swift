import Foundation
import PostgresClient

/// A change of a job's state. Every change after the claim goes through
/// `JobQueue.apply(_:to:in:)`: completion, a failed attempt (retry, dead), a release at
/// shutdown, cancellation, the rescue of an expired lease and the superseding of a waiting job.
enum JobTransition {
    /// The attempt did its work.
    case succeed(commitSHA: String?)
    /// The attempt failed: retried after the backoff while attempts remain and the error is worth
    /// retrying, else dead. Cancelled instead when cancellation was asked for or a newer job of
    /// the same repository, commit and kind is waiting (a retry would be a second waiting twin).
    case failAttempt(JobError, retryable: Bool)
    /// Back to the queue without using an attempt; cancelled if a waiting twin does the work.
    case release
    /// Stopped for good; `reason` (if any) becomes the job's last error.
    case cancel(reason: String?)
}

/// Why an attempt failed, as the job's last error and its errors history record it.
enum JobError {
    case message(String)
    /// The worker holding the lease stopped renewing it; the message names that worker.
    case leaseExpired
}

/// Which rows a transition applies to. A transition is applied only to rows that still match,
/// checked in the same statement: a worker whose lease was taken away changes nothing.
enum JobSelection {
    /// The job, if `job`'s worker still holds it in the same attempt.
    case leaseHeld(ClaimedJob)
    /// Running jobs whose lease expired, skipping rows another transaction is changing.
    case leaseExpired
    /// The job, if it is waiting to be claimed.
    case waiting(jobID: Int)
    /// The waiting jobs of `kind` of these repositories.
    case waitingOfKind(JobKind, repositoryIDs: [Int])
}

/// A job a transition changed, with the state it is in now.
struct TransitionedJob {
    var id: Int
    var runID: Int?
    var state: JobState
    /// Seconds until a retried job can be claimed again.
    var retryDelay: Double
}

/// Numbered parameters for a statement assembled from parts.
struct SQLParameters {
    private(set) var values: [PostgresValue] = []
    mutating func bind(_ value: PostgresValue) -> String {
        values.append(value)
        return "$\(values.count)"
    }
}

extension JobSelection {
    func condition(_ parameters: inout SQLParameters) -> String {
        switch self {
        case .leaseHeld(let job):
            "id = \(parameters.bind(.int(job.id))) AND locked_by = \(parameters.bind(.text(job.worker)))"
                + " AND attempt = \(parameters.bind(.int(job.attempt))) AND state = \(JobState.running.sql)"
        case .leaseExpired:
            "id IN (SELECT id FROM jobs WHERE state = \(JobState.running.sql) AND lease_expires_at < now() FOR UPDATE SKIP LOCKED)"
        case .waiting(let jobID):
            "id = \(parameters.bind(.int(jobID))) AND state IN \(JobState.sqlList(JobState.waiting))"
        case .waitingOfKind(let kind, let repositoryIDs):
            "kind = \(parameters.bind(.text(kind.rawValue))) AND state IN \(JobState.sqlList(JobState.waiting))"
                + " AND repository_id = ANY(\(parameters.bind(.intArray(repositoryIDs))))"
        }
    }
}

extension JobTransition {
    /// A newer job of the same repository, commit and kind is waiting.
    static let waitingTwin = """
        EXISTS (SELECT 1 FROM jobs twin WHERE twin.repository_id = jobs.repository_id AND twin.commit_ref = jobs.commit_ref
                AND twin.kind = jobs.kind AND twin.state IN \(JobState.sqlList(JobState.waiting)) AND twin.id <> jobs.id)
        """

    /// The SET list. Every expression reads the row as it was before the update.
    func assignments(_ parameters: inout SQLParameters, policy: QueuePolicy) -> String {
        switch self {
        case .succeed(let commitSHA):
            return """
                state = \(JobState.succeeded.sql), finished_at = now(), lease_expires_at = NULL,
                commit_sha = coalesce(\(parameters.bind(.optional(commitSHA))), commit_sha)
                """
        case .failAttempt(let error, let retryable):
            let retry = "\(parameters.bind(.bool(retryable))) AND attempt < max_attempts"
            let stops = "cancel_requested OR \(Self.waitingTwin)"
            let message: String, shortMessage: String
            switch error {
            case .message(let text):
                message = parameters.bind(.text(text)) + "::text"
                shortMessage = message
            case .leaseExpired:
                message = "'lease expired: worker ' || coalesce(locked_by, '?') || ' stopped renewing it (crashed, killed or hung)'"
                shortMessage = "'lease expired'"
            }
            return """
                state = CASE WHEN \(stops) THEN \(JobState.cancelled.sql)
                             WHEN \(retry) THEN \(JobState.failed.sql) ELSE \(JobState.dead.sql) END,
                run_after = now() + \(policy.backoffSQL(&parameters)),
                last_error = \(message),
                errors = errors || jsonb_build_array(jsonb_build_object(
                    'attempt', attempt, 'worker', locked_by, 'error', \(shortMessage), 'at', now())),
                locked_by = NULL, lease_expires_at = NULL,
                finished_at = CASE WHEN \(retry) AND NOT (\(stops)) THEN NULL ELSE now() END
                """
        case .release:
            return """
                state = CASE WHEN \(Self.waitingTwin) THEN \(JobState.cancelled.sql) ELSE \(JobState.queued.sql) END,
                attempt = attempt - 1, locked_by = NULL, lease_expires_at = NULL, run_after = now(),
                finished_at = CASE WHEN \(Self.waitingTwin) THEN now() END
                """
        case .cancel(let reason):
            let error = reason.map { "last_error = \(parameters.bind(.text($0))), " } ?? ""
            return "state = \(JobState.cancelled.sql), \(error)finished_at = now(), lease_expires_at = NULL"
        }
    }
}

extension QueuePolicy {
    /// The retry policy: the first retry waits about `backoffBaseSeconds`, each further one twice
    /// as long, at most `backoffMaxSeconds`, with jitter of ±50% so the failed jobs of one outage
    /// do not all come back at the same instant. `attempt` is the attempt that failed.
    func backoffSQL(_ parameters: inout SQLParameters) -> String {
        let base = parameters.bind(.double(backoffBaseSeconds)), max = parameters.bind(.double(backoffMaxSeconds))
        return "make_interval(secs => least(\(max)::float8, \(base)::float8 * power(2, attempt - 1)) * (0.5 + random()))"
    }
}
