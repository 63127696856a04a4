import PostgresClient

/// What the roll-ups must say given the findings and job summaries they summarise. The same
/// checks run on a history the real write path wrote (HistoryWriter and RunLedger, through the
/// queue) and on one deploy/sim/generate.sql wrote, so the scale simulation cannot measure a
/// database the write path would never leave behind.
public enum RollupConsistency {
    /// Each check counts the rows that break it; none may.
    static let checks: [(name: String, sql: String)] = [
        ("repository open counts differ from the repository's open findings", """
            WITH expected AS (
                SELECT repository_id, team_id, rule_id, severity, count(*) AS n FROM findings
                WHERE fixed_in_run IS NULL GROUP BY 1, 2, 3, 4
            )
            SELECT count(*) AS n FROM expected e FULL JOIN repository_open_counts o
                ON o.repository_id = e.repository_id AND o.team_id IS NOT DISTINCT FROM e.team_id
               AND o.rule_id = e.rule_id AND o.severity = e.severity
            WHERE e.n IS DISTINCT FROM o.open_count
            """),
        ("a repository's open totals differ from its open findings", """
            SELECT count(*) AS n FROM repositories p
            WHERE p.open_findings <> (SELECT count(*) FROM findings f WHERE f.repository_id = p.id AND f.fixed_in_run IS NULL)
               OR p.open_requirements <> (SELECT count(*) FROM findings f WHERE f.repository_id = p.id AND f.fixed_in_run IS NULL
                                            AND f.kind = 'requirement' AND f.certainty = 'violation')
            """),
        ("a repository's latest summary differs from its findings", """
            SELECT count(*) AS n FROM repositories p JOIN job_summaries s ON s.repository_id = p.id AND s.run_id = p.last_run_id
                AND s.history_applied
            WHERE s.findings_open <> (SELECT count(*) FROM findings f WHERE f.repository_id = p.id AND f.fixed_in_run IS NULL)
               OR s.findings_new <> (SELECT count(*) FROM findings f WHERE f.repository_id = p.id AND f.first_seen_run = s.run_id
                                       AND NOT f.baseline)
               OR s.findings_baseline <> (SELECT count(*) FROM findings f WHERE f.repository_id = p.id AND f.first_seen_run = s.run_id
                                            AND f.baseline)
               OR s.findings_fixed <> (SELECT count(*) FROM findings f WHERE f.repository_id = p.id AND f.fixed_in_run = s.run_id)
            """),
        ("a summary's open findings by severity do not add up", """
            SELECT count(*) AS n FROM job_summaries WHERE open_error + open_warning + open_note <> findings_open
            """),
        ("a repository's first audit counts findings as new, not as its baseline", """
            SELECT count(*) AS n FROM job_summaries s
            WHERE s.history_applied AND s.findings_new > 0 AND s.run_id IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM job_summaries e WHERE e.repository_id = s.repository_id AND e.history_applied
                                AND e.run_id < s.run_id)
            """),
        ("a finished run is not rolled up, or a running one is", """
            SELECT count(*) AS n FROM runs WHERE counts_rolled_up <> (state <> 'running')
            """),
        ("a run's counts differ from its jobs' summaries", """
            WITH counted AS (
                SELECT run_id, severity, sum(open_count) AS open, sum(new_count) AS new, sum(fixed_count) AS fixed
                FROM run_rule_counts GROUP BY 1, 2
            ), summarised AS (
                SELECT s.run_id, v.severity, sum(v.open) AS open
                FROM job_summaries s
                CROSS JOIN LATERAL (VALUES ('error', s.open_error), ('warning', s.open_warning), ('note', s.open_note)) v (severity, open)
                WHERE s.run_id IS NOT NULL GROUP BY 1, 2
            ), by_run AS (
                SELECT run_id, sum(new) AS new, sum(fixed) AS fixed FROM counted GROUP BY 1
            )
            SELECT (SELECT count(*) FROM summarised s FULL JOIN counted c USING (run_id, severity)
                    WHERE coalesce(s.open, 0) <> coalesce(c.open, 0))
                 + (SELECT count(*) FROM by_run b JOIN (SELECT run_id, sum(findings_new) AS new, sum(findings_fixed) AS fixed
                                                        FROM job_summaries GROUP BY 1) s USING (run_id)
                    WHERE b.new <> s.new OR b.fixed <> s.fixed) AS n
            """),
        ("a finished run's totals differ from its jobs and summaries", """
            SELECT count(*) AS n FROM runs r
            WHERE r.counts_rolled_up AND (
                r.totals -> 'jobs' IS DISTINCT FROM (SELECT coalesce(jsonb_object_agg(state, n), '{}')
                                                      FROM (SELECT state, count(*) AS n FROM jobs WHERE run_id = r.id GROUP BY state) j)
                OR (r.totals ->> 'open')::bigint <> (SELECT coalesce(sum(findings_open), 0) FROM job_summaries WHERE run_id = r.id)
                OR (r.totals ->> 'new')::bigint <> (SELECT coalesce(sum(findings_new), 0) FROM job_summaries WHERE run_id = r.id)
                OR (r.totals ->> 'fixed')::bigint <> (SELECT coalesce(sum(findings_fixed), 0) FROM job_summaries WHERE run_id = r.id)
                OR coalesce((r.totals ->> 'baseline')::bigint, 0) <> (SELECT coalesce(sum(findings_baseline), 0) FROM job_summaries
                                                                      WHERE run_id = r.id))
            """),
        ("a rolled-up run keeps per-job rows that record no change", """
            SELECT count(*) AS n FROM job_summary_counts c JOIN runs r ON r.id = c.run_id
            WHERE r.counts_rolled_up AND c.new_count = 0 AND c.fixed_count = 0
            """),
    ]

    /// The checks that fail, each with how many rows break it; empty when the roll-ups agree.
    public static func problems(in connection: PostgresConnection) throws -> [String] {
        try checks.compactMap { check in
            let broken = try connection.query(check.sql, purpose: "check that \(check.name)").first?.int("n") ?? -1
            return broken == 0 ? nil : "\(check.name): \(broken) rows"
        }
    }

    /// Throws, naming every failed check, unless the roll-ups agree.
    public static func check(_ connection: PostgresConnection) throws {
        let problems = try problems(in: connection)
        if !problems.isEmpty { throw Inconsistent(problems: problems) }
    }

    public struct Inconsistent: Error, CustomStringConvertible {
        public let problems: [String]
        public var description: String { "the roll-ups disagree with the history: " + problems.joined(separator: "; ") }
    }
}
