import AuditModel
import Foundation
import PostgresClient
import PullRequestVerdict

extension CheckState {
    /// The state as an SQL literal: `'pending'`.
    var sql: String { "'\(rawValue)'" }
}


/// The `pr_checks` rows: created pending when the webhook arrives, completed by the worker in the
/// job's completing transaction, then reported to GitHub (retried until it is).
public struct PullRequestStore {
    public let connection: PostgresConnection

    public init(connection: PostgresConnection) { self.connection = connection }

    /// The finished hook: a check whose job died or was cancelled will never get a verdict from
    /// it, and says so (it is reported) instead of staying pending on GitHub.
    public static let jobsFinished: JobFinishedHook = { jobs, connection in
        for (jobState, state) in [(JobState.dead, CheckState.error), (.cancelled, .cancelled)] {
            let ids = jobs.filter { $0.state == jobState }.map(\.id)
            guard !ids.isEmpty else { continue }
            try connection.query("""
                UPDATE pr_checks SET state = $2, updated_at = now() WHERE job_id = ANY($1) AND state = \(CheckState.pending.sql)
                """, [.intArray(ids), .text(state.rawValue)], purpose: "settle the checks of \(ids.count) finished jobs")
        }
    }

    public struct Check: Sendable, Equatable {
        public var id: Int
        public var repositoryID: Int
        public var repository: String
        public var prNumber: Int
        public var headSHA: String
        public var baseSHA: String
        public var baseRef: String
        public var jobID: Int?
        public var state: CheckState
        public var gate: PullRequestGate
        public var newCount: Int?
        public var fixedCount: Int?
        public var unchangedCount: Int?
        /// The comparison, once the job has stored it; nil before, or if the stored row cannot be read.
        public var results: PullRequestResults?
        public var reportedState: CheckState?
        public var reportAttempts: Int
        public var reportError: String?
        public var checkRunID: Int?
    }

    /// Records the check of a head commit (pending), or returns the existing one's id.
    @discardableResult
    public func open(repositoryID: Int, prNumber: Int, headSHA: String, baseSHA: String, baseRef: String, jobID: Int?,
                     gate: PullRequestGate) throws -> Int {
        let rows = try connection.query("""
            INSERT INTO pr_checks (repository_id, pr_number, head_sha, base_sha, base_ref, job_id, gate)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (repository_id, pr_number, head_sha) DO UPDATE SET
                job_id = coalesce(EXCLUDED.job_id, pr_checks.job_id), base_sha = EXCLUDED.base_sha, base_ref = EXCLUDED.base_ref,
                gate = EXCLUDED.gate, updated_at = now()
            RETURNING id
            """, [.int(repositoryID), .int(prNumber), .text(headSHA), .text(baseSHA), .text(baseRef), .optional(jobID), .text(gate.rawValue)],
            purpose: "record the check of pull request #\(prNumber) at \(headSHA.prefix(12))")
        guard let id = rows.first?.int("id") else {
            throw DatabaseError.unexpectedResult(purpose: "record a pull-request check", reason: "no id returned")
        }
        return id
    }

    /// Stores the comparison and the verdict (inside the job's completing transaction).
    public func complete(_ job: ClaimedJob, comparison: PullRequestComparison) throws {
        guard let prNumber = job.prNumber else { return }
        let existing = try connection.query("""
            SELECT gate FROM pr_checks WHERE repository_id = $1 AND pr_number = $2 AND head_sha = $3
            """, [.int(job.repositoryID), .int(prNumber), .text(job.commitRef)], purpose: "read the gate of pull request #\(prNumber)")
        let gate = existing.first?.string("gate").flatMap(PullRequestGate.init(rawValue:)) ?? .requirements
        if existing.isEmpty {
            try open(repositoryID: job.repositoryID, prNumber: prNumber, headSHA: job.commitRef, baseSHA: job.baseSHA ?? "",
                     baseRef: job.baseRef ?? "", jobID: job.id, gate: gate)
        }
        let state = gate.verdict(new: comparison.new)
        try connection.query("""
            UPDATE pr_checks SET state = $4, new_count = $5, fixed_count = $6, unchanged_count = $7, results = $8::jsonb,
                                 job_id = $9, updated_at = now()
            WHERE repository_id = $1 AND pr_number = $2 AND head_sha = $3
            """, [.int(job.repositoryID), .int(prNumber), .text(job.commitRef), .text(state.rawValue), .int(comparison.new.count),
                  .int(comparison.fixed.count), .int(comparison.unchangedCount), .text(PullRequestResults(comparison).json), .int(job.id)],
            purpose: "store the verdict of pull request #\(prNumber)")
    }

    /// Marks the checks of a job that was cancelled (a newer push superseded it).
    public func cancel(jobID: Int) throws {
        try connection.query("""
            UPDATE pr_checks SET state = \(CheckState.cancelled.sql), updated_at = now() WHERE job_id = $1 AND state = \(CheckState.pending.sql)
            """, [.int(jobID)], purpose: "cancel the check of job \(jobID)")
    }

    public func checks(where condition: String = "true", _ parameters: [PostgresValue] = [], limit: Int = 1000) throws -> [Check] {
        let rows = try connection.query("""
            SELECT c.*, r.name AS repository FROM pr_checks c JOIN repositories r ON r.id = c.repository_id
            WHERE \(condition) ORDER BY c.id LIMIT \(limit)
            """, parameters, purpose: "read pull-request checks")
        return rows.map { row in
            Check(id: row.int("id") ?? 0, repositoryID: row.int("repository_id") ?? 0, repository: row.string("repository") ?? "",
                  prNumber: row.int("pr_number") ?? 0, headSHA: row.string("head_sha") ?? "", baseSHA: row.string("base_sha") ?? "",
                  baseRef: row.string("base_ref") ?? "", jobID: row.int("job_id"), state: row.string("state").flatMap(CheckState.init(rawValue:)) ?? .pending,
                  gate: row.string("gate").flatMap(PullRequestGate.init(rawValue:)) ?? .requirements, newCount: row.int("new_count"),
                  fixedCount: row.int("fixed_count"), unchangedCount: row.int("unchanged_count"), results: row.string("results").flatMap { try? PullRequestResults(json: $0) },
                  reportedState: row.string("reported_state").flatMap(CheckState.init(rawValue:)), reportAttempts: row.int("report_attempts") ?? 0,
                  reportError: row.string("report_error"), checkRunID: row.int("check_run_id"))
        }
    }

    /// Checks whose current state has not been reported to GitHub yet.
    public func unreported(limit: Int = 100) throws -> [Check] {
        try checks(where: "c.reported_state IS DISTINCT FROM c.state", limit: limit)
    }

    /// Takes the next check due for reporting for two minutes, committed at once: the caller
    /// talks to GitHub outside any transaction, and no other reporter takes the same check.
    /// A failed report waits 2, 4, 8 … seconds (at most five minutes) before it is taken again.
    public func takeDue() throws -> Check? {
        let rows = try connection.query("""
            UPDATE pr_checks SET reporting_until = now() + interval '120 seconds'
            WHERE id = (SELECT id FROM pr_checks
                        WHERE reported_state IS DISTINCT FROM state
                          AND (reporting_until IS NULL OR reporting_until < now())
                          AND (report_attempts = 0 OR updated_at < now() - make_interval(secs => least(300, 2 ^ report_attempts)))
                        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING id
            """, purpose: "take a check to report")
        guard let id = rows.first?.int("id") else { return nil }
        return try checks(where: "c.id = $1", [.int(id)]).first
    }

    public func markReported(_ checkID: Int, state: CheckState, checkRunID: Int? = nil) throws {
        try connection.query("""
            UPDATE pr_checks SET reported_state = $2, status_reported_at = now(), report_error = NULL, report_attempts = 0,
                                 reporting_until = NULL, check_run_id = coalesce($3, check_run_id)
            WHERE id = $1
            """, [.int(checkID), .text(state.rawValue), .optional(checkRunID)], purpose: "mark check \(checkID) reported")
    }

    public func markReportFailed(_ checkID: Int, error: String) throws {
        try connection.query("""
            UPDATE pr_checks SET report_attempts = report_attempts + 1, report_error = $2, reporting_until = NULL,
                                 updated_at = now()
            WHERE id = $1
            """, [.int(checkID), .text(error)], purpose: "record a failed report of check \(checkID)")
    }
}
