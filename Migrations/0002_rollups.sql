-- Roll-ups that keep the dashboard's queries and the nightly storage growth independent of how
-- many findings are open (docs/scaling.md has the measurements that asked for them):
--
-- * repository_open_counts: open findings per repository, team, rule and severity, replaced by
--   the job that applies a repository's history (in its completing transaction). The overview,
--   team and readiness pages and /metrics read it instead of counting `findings`.
-- * run_counts: one run's open, new and fixed findings per team, rule and severity, written when
--   the run finishes. Per-job rows in job_summary_counts that recorded only an unchanged open
--   count are then deleted, so a finished night keeps rows only for what changed.
-- * run_rule_counts: the view trends read: run_counts for rolled-up runs, per-job rows for the
--   run still in progress.
-- * job_summaries.open_error / open_warning / open_note: a repository's trend by severity
--   without the per-job counts.
-- * repositories.open_findings / open_requirements: the same, summed per repository.
-- * runs.totals: a finished run's jobs by state and summed findings and durations.
-- * job_summaries (created_at): /metrics counts each summary once, by when it was written.
-- Never edit this file after it lands: add a new numbered migration instead.

CREATE TABLE repository_open_counts (
    repository_id bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
    team_id       bigint,
    rule_id       text NOT NULL,
    kind          text NOT NULL,
    severity      text NOT NULL,
    open_count    integer NOT NULL CHECK (open_count > 0),
    UNIQUE NULLS NOT DISTINCT (repository_id, team_id, rule_id, severity)
);
CREATE INDEX repository_open_counts_by_team ON repository_open_counts (team_id);

-- A repository's open findings in all and at requirement level, beside its last_run_id.
ALTER TABLE repositories
    ADD COLUMN open_findings     integer NOT NULL DEFAULT 0,
    ADD COLUMN open_requirements integer NOT NULL DEFAULT 0;

INSERT INTO repository_open_counts (repository_id, team_id, rule_id, kind, severity, open_count)
SELECT repository_id, team_id, rule_id, max(kind), severity, count(*)
FROM findings WHERE fixed_in_run IS NULL
GROUP BY repository_id, team_id, rule_id, severity;

UPDATE repositories p SET open_findings = o.total, open_requirements = o.requirements
FROM (SELECT repository_id, sum(open_count) AS total, coalesce(sum(open_count) FILTER (WHERE kind = 'requirement'), 0) AS requirements
      FROM repository_open_counts GROUP BY repository_id) o
WHERE o.repository_id = p.id;

ALTER TABLE runs ADD COLUMN counts_rolled_up boolean NOT NULL DEFAULT false;
-- {"jobs": {"succeeded": n, ...}, "open": n, "new": n, "fixed": n, "fetch_ms": n, "scan_ms": n, "write_ms": n}
ALTER TABLE runs ADD COLUMN totals jsonb;

CREATE TABLE run_counts (
    run_id      bigint NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    team_id     bigint,
    rule_id     text NOT NULL,
    kind        text NOT NULL,
    severity    text NOT NULL,
    open_count  integer NOT NULL,
    new_count   integer NOT NULL,
    fixed_count integer NOT NULL,
    UNIQUE NULLS NOT DISTINCT (run_id, team_id, rule_id, severity)
);
CREATE INDEX run_counts_by_team ON run_counts (team_id, run_id);

CREATE VIEW run_rule_counts AS
SELECT run_id, team_id, rule_id, kind, severity, open_count, new_count, fixed_count
FROM run_counts
UNION ALL
SELECT c.run_id, c.team_id, c.rule_id, c.kind, c.severity, c.open_count, c.new_count, c.fixed_count
FROM job_summary_counts c JOIN runs r ON r.id = c.run_id
WHERE NOT r.counts_rolled_up;

CREATE INDEX job_summaries_by_time ON job_summaries (created_at);

ALTER TABLE job_summaries
    ADD COLUMN open_error   integer NOT NULL DEFAULT 0,
    ADD COLUMN open_warning integer NOT NULL DEFAULT 0,
    ADD COLUMN open_note    integer NOT NULL DEFAULT 0;

UPDATE job_summaries s SET open_error = c.error, open_warning = c.warning, open_note = c.note
FROM (SELECT job_id,
             coalesce(sum(open_count) FILTER (WHERE severity = 'error'), 0) AS error,
             coalesce(sum(open_count) FILTER (WHERE severity = 'warning'), 0) AS warning,
             coalesce(sum(open_count) FILTER (WHERE severity = 'note'), 0) AS note
      FROM job_summary_counts GROUP BY job_id) c
WHERE c.job_id = s.job_id;

-- Finished runs are rolled up now, exactly as JobQueue does when a run finishes.
INSERT INTO run_counts (run_id, team_id, rule_id, kind, severity, open_count, new_count, fixed_count)
SELECT c.run_id, c.team_id, c.rule_id, max(c.kind), c.severity, sum(c.open_count), sum(c.new_count), sum(c.fixed_count)
FROM job_summary_counts c JOIN runs r ON r.id = c.run_id
WHERE r.state <> 'running'
GROUP BY c.run_id, c.team_id, c.rule_id, c.severity;

UPDATE runs r SET counts_rolled_up = true,
    totals = jsonb_build_object(
        'jobs', (SELECT coalesce(jsonb_object_agg(state, n), '{}') FROM (SELECT state, count(*) AS n FROM jobs WHERE run_id = r.id GROUP BY state) j),
        'open', s.open, 'new', s.new, 'fixed', s.fixed, 'fetch_ms', s.fetch_ms, 'scan_ms', s.scan_ms, 'write_ms', s.write_ms)
FROM (SELECT r2.id, coalesce(sum(findings_open), 0) AS open, coalesce(sum(findings_new), 0) AS new,
             coalesce(sum(findings_fixed), 0) AS fixed, coalesce(sum(fetch_ms), 0) AS fetch_ms,
             coalesce(sum(scan_ms), 0) AS scan_ms, coalesce(sum(write_ms), 0) AS write_ms
      FROM runs r2 LEFT JOIN job_summaries s2 ON s2.run_id = r2.id
      WHERE r2.state <> 'running' GROUP BY r2.id) s
WHERE s.id = r.id;

DELETE FROM job_summary_counts c USING runs r
WHERE r.id = c.run_id AND r.counts_rolled_up AND c.new_count = 0 AND c.fixed_count = 0;

-- The unique key on (job, team, rule, severity) had one entry per row: when a finished run
-- deletes nine rows in ten, its leaf pages stay a tenth full and are never reused by later
-- (higher) job ids, so the index grew with each night's open counts (measured: 20 MB a night
-- at 10,000 repositories). A job's counts are written once, in the transaction that inserts its
-- summary (whose primary key refuses a second one), so the key guarded nothing more; the foreign
-- key's cascade still needs job_id, in an index that deduplicates a job's rows into one entry.
ALTER TABLE job_summary_counts DROP CONSTRAINT job_summary_counts_job_id_team_id_rule_id_severity_key;
CREATE INDEX job_summary_counts_by_job ON job_summary_counts (job_id);
