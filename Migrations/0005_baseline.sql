-- A repository's first audit, and the first audit that checks a rule, record what was already
-- there: a baseline, not a regression. Such findings are `baseline`; they are counted apart from
-- new ones (job_summaries.findings_baseline), so trends, regression reports and alerts start
-- from the second night instead of showing every existing finding as new.
--
-- * findings.baseline: first seen in an audit that established the baseline for its rule.
-- * job_summaries.findings_baseline: how many of the job's findings were recorded that way;
--   findings_new and the per-job and per-run new counts leave them out.
-- * repositories.rules_checked: the rules the repository's latest audit checked (NULL: not
--   known, for audits before this migration), so the next audit knows which rules are new to it.
-- Never edit this file after it lands: add a new numbered migration instead.

ALTER TABLE findings ADD COLUMN baseline boolean NOT NULL DEFAULT false;
ALTER TABLE job_summaries ADD COLUMN findings_baseline integer NOT NULL DEFAULT 0;
ALTER TABLE repositories ADD COLUMN rules_checked text[];

-- The history so far: each repository's first audit that applied its history recorded a
-- baseline. Its findings, its summary and its counts are corrected the same way.
CREATE TEMP TABLE baseline_jobs AS
SELECT DISTINCT ON (s.repository_id) s.job_id, s.run_id, s.repository_id
FROM job_summaries s WHERE s.history_applied AND s.run_id IS NOT NULL
ORDER BY s.repository_id, s.run_id, s.job_id;

UPDATE findings f SET baseline = true
FROM baseline_jobs b WHERE f.repository_id = b.repository_id AND f.first_seen_run = b.run_id;

UPDATE job_summaries s SET findings_baseline = s.findings_new, findings_new = 0
FROM baseline_jobs b WHERE s.job_id = b.job_id;

UPDATE run_counts r SET new_count = r.new_count - c.new
FROM (SELECT c.run_id, c.team_id, c.rule_id, c.severity, sum(c.new_count) AS new
      FROM job_summary_counts c JOIN baseline_jobs b ON b.job_id = c.job_id
      GROUP BY 1, 2, 3, 4) c
WHERE r.run_id = c.run_id AND r.team_id IS NOT DISTINCT FROM c.team_id AND r.rule_id = c.rule_id AND r.severity = c.severity;

UPDATE job_summary_counts c SET new_count = 0 FROM baseline_jobs b WHERE c.job_id = b.job_id AND c.new_count <> 0;

-- Rows of rolled-up runs that now record no change go, as RunLedger's compaction leaves them.
DELETE FROM job_summary_counts c USING runs r, baseline_jobs b
WHERE c.job_id = b.job_id AND r.id = c.run_id AND r.counts_rolled_up AND c.new_count = 0 AND c.fixed_count = 0;

UPDATE runs r SET totals = jsonb_set(jsonb_set(r.totals, '{new}', to_jsonb(s.new)), '{baseline}', to_jsonb(s.baseline))
FROM (SELECT run_id, coalesce(sum(findings_new), 0) AS new, coalesce(sum(findings_baseline), 0) AS baseline
      FROM job_summaries WHERE run_id IS NOT NULL GROUP BY run_id) s
WHERE s.run_id = r.id AND r.totals IS NOT NULL;

DROP TABLE baseline_jobs;
