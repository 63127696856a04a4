import Foundation
import PostgresClient

/// A run's state. Its only spelling: SQL text is built from these cases.
public enum RunState: String, Sendable, Codable, CaseIterable {
    case running, succeeded, failed, cancelled

    /// The state as an SQL literal: `'running'`.
    public var sql: String { "'\(rawValue)'" }
}

/// What started a run: the nightly schedule or a person (`a11y-audit run`). Pull-request jobs
/// belong to no run.
public enum RunKind: String, Sendable, Codable, CaseIterable {
    case nightly, manual

    /// The kind as an SQL literal: `'nightly'`.
    public var sql: String { "'\(rawValue)'" }
}

/// The runs' side of the queue: a run finishes, and is rolled up, when its last job does.
public enum RunLedger {
    /// The finished hook: the runs of the finished jobs settle themselves.
    public static let jobsFinished: JobFinishedHook = { jobs, connection in
        var seen = Set<Int>()
        for job in jobs {
            guard let run = job.runID, seen.insert(run).inserted else { continue }
            try finishIfDone(run, in: connection)
        }
    }

    /// Marks run `runID` finished once none of its jobs can still run: `failed` when a job is dead,
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
    public static func finishIfDone(_ runID: Int?, in connection: PostgresConnection) throws {
        guard let runID else { return }
        let unfinished = try connection.query("""
            SELECT id FROM jobs WHERE run_id = $1 AND state IN \(JobState.sqlList(JobState.unfinished)) LIMIT 1 FOR SHARE SKIP LOCKED
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
                    state = CASE WHEN EXISTS (SELECT 1 FROM jobs WHERE run_id = $1 AND state = \(JobState.dead.sql)) THEN \(RunState.failed.sql)
                                 WHEN EXISTS (SELECT 1 FROM jobs WHERE run_id = $1 AND state = \(JobState.cancelled.sql))
                                      AND NOT EXISTS (SELECT 1 FROM jobs WHERE run_id = $1 AND state = \(JobState.succeeded.sql)) THEN \(RunState.cancelled.sql)
                                 ELSE \(RunState.succeeded.sql) END,
                    totals = (SELECT jsonb_build_object(
                                 'jobs', (SELECT coalesce(jsonb_object_agg(state, n), '{}')
                                          FROM (SELECT state, count(*) AS n FROM jobs WHERE run_id = $1 GROUP BY state) j),
                                 'open', coalesce(sum(findings_open), 0), 'new', coalesce(sum(findings_new), 0),
                                 'fixed', coalesce(sum(findings_fixed), 0), 'baseline', coalesce(sum(findings_baseline), 0),
                                 'fetch_ms', coalesce(sum(fetch_ms), 0),
                                 'scan_ms', coalesce(sum(scan_ms), 0), 'write_ms', coalesce(sum(write_ms), 0))
                              FROM job_summaries WHERE run_id = $1)
                WHERE id = $1 AND state = \(RunState.running.sql)
                  AND NOT EXISTS (SELECT 1 FROM jobs WHERE run_id = $1 AND state IN \(JobState.sqlList(JobState.unfinished)))
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
        if !rows.isEmpty { try connection.notify(JobQueue.doneChannel, payload: "run:\(runID)") }
    }

}
