-- Generates an organisation's history directly in PostgreSQL, through the real schema, for the
-- scale simulation (docs/scaling.md). Run by deploy/sim/run.sh, which migrates first and loads
-- the rule catalog into sim_rules (id, kind, severity) from `a11y-audit rules`.
--
-- psql variables: org, repos, teams, nights, mean_open (mean open findings per repository),
-- churn (the share of a repository's open findings fixed, and replaced by new ones, per night),
-- seed. Every row is derived from a seeded random stream, so a run is reproducible.
--
-- The model: each repository has a steady open-finding level drawn from a long-tailed
-- distribution (most repositories have a few dozen, a few have hundreds); each finding lives a
-- geometric number of nights (daily fix probability = churn), and new findings arrive at the
-- rate that keeps the level steady. Rules are drawn with a skew (a handful of rules make most
-- findings, as in real audits). Jobs, summaries and per-job counts are then derived from the
-- findings exactly as HistoryWriter would have written them night by night, and rolled up as
-- RunLedger rolls up a finished run (DatabaseTestSupport's RollupConsistency checks both against
-- the findings, on this generator's output and on the real write path's).
\set ON_ERROR_STOP on
SELECT setseed(:seed);

-- Under migration 0005 a repository's first audit (night 1 here) records a baseline: its
-- findings are `baseline` and counted apart from new ones. The first schema knows no baseline.
SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'findings' AND column_name = 'baseline')
    AS has_baseline \gset
\if :has_baseline
\set baseline_nights 1
\set finding_baseline_column ', baseline'
\set finding_baseline_value ', f.born_night <= 1'
\set summary_baseline_column ', findings_baseline'
\set summary_baseline_value ', findings_baseline'
\else
\set baseline_nights 0
\set finding_baseline_column ''
\set finding_baseline_value ''
\set summary_baseline_column ''
\set summary_baseline_value ''
\endif

BEGIN;
INSERT INTO teams (org, name, slug, owners)
SELECT :'org', 'Team ' || lpad(t::text, 2, '0'), 'team-' || lpad(t::text, 2, '0'),
       ARRAY['@' || :'org' || '/team-' || lpad(t::text, 2, '0')]
FROM generate_series(1, :teams) t;

CREATE TEMP TABLE sim_team AS
SELECT row_number() OVER (ORDER BY id) AS n, id FROM teams WHERE org = :'org';

-- Teams own unequal numbers of repositories (the first teams own more).
INSERT INTO repositories (org, name, team_id, provider, archive_url)
SELECT :'org', :'org' || '/app-' || lpad(r::text, 5, '0'),
       t.id, 'url', 'file:///sim/app-' || r.r || '.tar.gz'
FROM (SELECT r, 1 + floor(:teams * power(random(), 1.6))::int AS team_n FROM generate_series(1, :repos) r) r
JOIN sim_team t ON t.n = r.team_n;

-- Nightly runs, oldest first, all finished.
INSERT INTO runs (org, kind, run_date, state, jobs_total, created_by, created_at, finished_at)
SELECT :'org', 'nightly', current_date - (:nights - n), 'succeeded', :repos, 'sim',
       (current_date - (:nights - n)) + time '02:00', (current_date - (:nights - n)) + time '02:00' + interval '47 minutes'
FROM generate_series(1, :nights) n;

CREATE TEMP TABLE sim_run AS
SELECT row_number() OVER (ORDER BY id) AS night, id, run_date FROM runs WHERE org = :'org';

CREATE TEMP TABLE sim_repo AS
SELECT p.id, p.team_id,
       -- Long-tailed open level: exponential with the given mean, plus a small floor.
       greatest(1, round(-ln(1 - random() * 0.999) * :mean_open))::int AS level
FROM repositories p WHERE p.org = :'org';

CREATE TEMP TABLE sim_team_ids AS SELECT array_agg(id ORDER BY n) AS ids FROM sim_team;

CREATE TEMP TABLE sim_rule AS
SELECT row_number() OVER (ORDER BY id) - 1 AS n, id, kind, severity FROM sim_rules;
SELECT count(*) AS rule_count FROM sim_rule \gset

-- Findings alive on the first night, then arrivals on later nights; lifetimes are geometric.
CREATE TEMP TABLE sim_finding AS
WITH born AS (
    SELECT r.id AS repository_id, r.team_id, 1 AS born_night, g AS k
    FROM sim_repo r, generate_series(1, r.level) g
    UNION ALL
    SELECT r.id, r.team_id, night.n, g
    FROM sim_repo r, generate_series(2, :nights) night(n),
         generate_series(1, floor(r.level * :churn + random())::int) g
)
SELECT b.repository_id, b.born_night,
       -- One finding in ten is owned (by CODEOWNERS) by another team than the repository's.
       CASE WHEN random() < 0.1 THEN ti.ids[1 + floor(random() * :teams)::int]
            ELSE b.team_id END AS team_id,
       floor(:rule_count * power(random(), 2.5))::int AS rule_n,
       b.born_night + 1 + floor(ln(1 - random()) / ln(1 - :churn))::int AS fixed_night,
       md5(b.repository_id || ':' || b.born_night || ':' || b.k) AS fingerprint,
       1 + floor(random() * 40)::int AS file_n, 1 + floor(random() * 400)::int AS line
FROM born b, sim_team_ids ti;

INSERT INTO findings (repository_id, fingerprint, rule_id, kind, severity, team_id, path, line, column_number, message,
                      snippet, source_line, first_seen_run, last_seen_run, fixed_in_run, first_seen_at, fixed_at
                      :finding_baseline_column)
SELECT f.repository_id, f.fingerprint, u.id, u.kind, u.severity, f.team_id,
       'Sources/Feature' || (f.file_n % 7) || '/Screen' || f.file_n || 'View.swift', f.line, 9,
       'The value found here is compared with the threshold Apple publishes for this rule (' || u.id || '); see the rule page.',
       'Text(title).font(.system(size: ' || (10 + f.line % 8) || '))',
       '            Text(title).font(.system(size: ' || (10 + f.line % 8) || ')).foregroundStyle(.secondary)',
       born.id, CASE WHEN f.fixed_night <= :nights THEN lastseen.id END, fixed.id,
       born.run_date + time '02:30', fixed.run_date + time '02:30' :finding_baseline_value
FROM sim_finding f
JOIN sim_rule u ON u.n = f.rule_n
JOIN sim_run born ON born.night = f.born_night
LEFT JOIN sim_run fixed ON fixed.night = f.fixed_night
LEFT JOIN sim_run lastseen ON lastseen.night = f.fixed_night - 1
-- Rows in the order the write path adds them (a night's findings, jobs and summaries together):
-- a page reading one run's rows then reads as few blocks as it would in a real database.
ORDER BY f.born_night, f.repository_id;

UPDATE repositories SET last_run_id = (SELECT max(id) FROM sim_run) WHERE org = :'org';

-- One succeeded nightly job per repository and night.
INSERT INTO jobs (run_id, repository_id, kind, commit_ref, commit_sha, archive_url, state, attempt, locked_by,
                  created_at, started_at, finished_at)
SELECT n.id, r.id, 'nightly', 'main', md5(r.id || '@' || n.night), 'file:///sim/app.tar.gz', 'succeeded', 1,
       'sim-worker-' || (r.id % 32),
       n.run_date + time '02:00', n.run_date + time '02:00' + (r.id % 2700) * interval '1 second',
       n.run_date + time '02:00' + (r.id % 2700 + 3) * interval '1 second'
FROM sim_run n CROSS JOIN sim_repo r
ORDER BY n.night, r.id;

-- Per repository, rule (with kind and severity) and team: the open, new and fixed count of
-- every night, from the findings' lifetimes (a running sum of arrivals minus fixes).
CREATE TEMP TABLE sim_events AS
SELECT repository_id, team_id, rule_n, born_night AS night, 1 AS born, 0 AS fixed FROM sim_finding
UNION ALL
SELECT repository_id, team_id, rule_n, fixed_night, 0, 1 FROM sim_finding WHERE fixed_night <= :nights;

CREATE TEMP TABLE sim_counts AS
WITH per_night AS (
    SELECT repository_id, team_id, rule_n, night, sum(born) AS new, sum(fixed) AS fixed
    FROM sim_events GROUP BY 1, 2, 3, 4
), keys AS (
    SELECT DISTINCT repository_id, team_id, rule_n FROM sim_events
), grid AS (
    SELECT k.repository_id, k.team_id, k.rule_n, n.night,
           coalesce(p.new, 0) AS new, coalesce(p.fixed, 0) AS fixed
    FROM keys k CROSS JOIN generate_series(1, :nights) n(night)
    LEFT JOIN per_night p USING (repository_id, team_id, rule_n, night)
)
SELECT repository_id, team_id, rule_n, night,
       CASE WHEN night <= :baseline_nights THEN 0 ELSE new END AS new,
       CASE WHEN night <= :baseline_nights THEN new ELSE 0 END AS baseline, fixed,
       sum(new - fixed) OVER (PARTITION BY repository_id, team_id, rule_n ORDER BY night) AS open
FROM grid;
-- A key with nothing open and nothing new or fixed that night is not written (HistoryWriter
-- writes counts only for keys the job saw or fixed).
DELETE FROM sim_counts WHERE open = 0 AND new = 0 AND fixed = 0 AND baseline = 0;

-- Every run is finished, so (under migration 0002's roll-ups) the per-job counts are kept as
-- RunLedger leaves them once a run is rolled up: summed per run into run_counts, and only the
-- rows that record a change (a new or a fixed finding) kept in job_summary_counts. They are
-- aggregated once in a temporary table rather than written whole and then deleted (22 M rows at
-- 10,000 repositories).
CREATE TEMP TABLE sim_job_counts AS
SELECT j.id AS job_id, j.run_id, c.team_id, u.id AS rule_id, u.kind, u.severity,
       sum(c.open)::int AS open_count, sum(c.new)::int AS new_count, sum(c.fixed)::int AS fixed_count
FROM sim_counts c JOIN sim_rule u ON u.n = c.rule_n JOIN sim_run n ON n.night = c.night
JOIN jobs j ON j.run_id = n.id AND j.repository_id = c.repository_id
GROUP BY j.id, j.run_id, c.team_id, u.id, u.kind, u.severity;

-- The summaries, with each job's open findings by severity as HistoryWriter writes them on the
-- summary (those columns come with migration 0002), in one insert so that no row is updated.
CREATE TEMP TABLE sim_summaries AS
SELECT j.id AS job_id, j.run_id, j.repository_id, j.commit_sha, true AS history_applied, 40 + r.level % 300 AS files_scanned,
       3 + r.level % 11 AS files_parsed, 37 + r.level % 290 AS cache_hits,
       coalesce(c.open, 0) AS findings_open, coalesce(c.new, 0) AS findings_new, coalesce(c.fixed, 0) AS findings_fixed,
       coalesce(c.baseline, 0) AS findings_baseline,
       0 AS suppressed, 40 + j.id % 200 AS fetch_ms, 15 + j.id % 900 AS scan_ms, 4 + j.id % 20 AS write_ms, '[]'::jsonb AS notes,
       NULL::jsonb AS config, j.finished_at AS created_at,
       coalesce(v.error, 0) AS open_error, coalesce(v.warning, 0) AS open_warning, coalesce(v.note, 0) AS open_note
FROM jobs j JOIN sim_run n ON n.id = j.run_id JOIN sim_repo r ON r.id = j.repository_id
LEFT JOIN (SELECT repository_id, night, sum(open) AS open, sum(new) AS new, sum(fixed) AS fixed, sum(baseline) AS baseline
           FROM sim_counts GROUP BY 1, 2) c ON c.repository_id = j.repository_id AND c.night = n.night
LEFT JOIN (SELECT job_id, sum(open_count) FILTER (WHERE severity = 'error') AS error,
                  sum(open_count) FILTER (WHERE severity = 'warning') AS warning,
                  sum(open_count) FILTER (WHERE severity = 'note') AS note
           FROM sim_job_counts GROUP BY job_id) v ON v.job_id = j.id;

SELECT to_regclass('run_counts') IS NOT NULL AS has_rollups \gset
\if :has_rollups
INSERT INTO job_summaries (job_id, run_id, repository_id, commit_sha, history_applied, files_scanned, files_parsed, cache_hits,
                           findings_open, findings_new, findings_fixed, suppressed, fetch_ms, scan_ms, write_ms, notes, config, created_at,
                           open_error, open_warning, open_note :summary_baseline_column)
SELECT job_id, run_id, repository_id, commit_sha, history_applied, files_scanned, files_parsed, cache_hits, findings_open,
       findings_new, findings_fixed, suppressed, fetch_ms, scan_ms, write_ms, notes, config, created_at,
       open_error, open_warning, open_note :summary_baseline_value
FROM sim_summaries ORDER BY job_id;

INSERT INTO job_summary_counts (job_id, run_id, team_id, rule_id, kind, severity, open_count, new_count, fixed_count)
SELECT job_id, run_id, team_id, rule_id, kind, severity, open_count, new_count, fixed_count
FROM sim_job_counts WHERE new_count <> 0 OR fixed_count <> 0 ORDER BY job_id;

INSERT INTO run_counts (run_id, team_id, rule_id, kind, severity, open_count, new_count, fixed_count)
SELECT run_id, team_id, rule_id, max(kind), severity, sum(open_count), sum(new_count), sum(fixed_count)
FROM sim_job_counts GROUP BY run_id, team_id, rule_id, severity;

-- The runs' totals, as RunLedger writes them when a run finishes.
UPDATE runs r SET counts_rolled_up = true,
    totals = jsonb_build_object('jobs', jsonb_build_object('succeeded', s.jobs), 'open', s.open, 'new', s.new,
                                'fixed', s.fixed, 'baseline', s.baseline, 'fetch_ms', s.fetch_ms, 'scan_ms', s.scan_ms,
                                'write_ms', s.write_ms)
FROM (SELECT run_id, count(*) AS jobs, sum(findings_open) AS open, sum(findings_new) AS new, sum(findings_fixed) AS fixed,
             sum(findings_baseline) AS baseline,
             sum(fetch_ms) AS fetch_ms, sum(scan_ms) AS scan_ms, sum(write_ms) AS write_ms
      FROM job_summaries WHERE run_id IN (SELECT id FROM sim_run) GROUP BY run_id) s
WHERE s.run_id = r.id;

-- Each repository's open findings, as the job that applies its history leaves them.
INSERT INTO repository_open_counts (repository_id, team_id, rule_id, kind, severity, open_count)
SELECT repository_id, team_id, rule_id, max(kind), severity, count(*)
FROM findings WHERE fixed_in_run IS NULL AND repository_id IN (SELECT id FROM sim_repo)
GROUP BY repository_id, team_id, rule_id, severity;

UPDATE repositories p SET open_findings = o.total, open_requirements = o.requirements
FROM (SELECT repository_id, sum(open_count) AS total, coalesce(sum(open_count) FILTER (WHERE kind = 'requirement'), 0) AS requirements
      FROM repository_open_counts WHERE repository_id IN (SELECT id FROM sim_repo) GROUP BY repository_id) o
WHERE o.repository_id = p.id;
\else
-- The first schema (RollupMigrationTests generates into it, then migrates): every per-job row.
INSERT INTO job_summaries (job_id, run_id, repository_id, commit_sha, history_applied, files_scanned, files_parsed, cache_hits,
                           findings_open, findings_new, findings_fixed, suppressed, fetch_ms, scan_ms, write_ms, notes, config, created_at)
SELECT job_id, run_id, repository_id, commit_sha, history_applied, files_scanned, files_parsed, cache_hits, findings_open,
       findings_new, findings_fixed, suppressed, fetch_ms, scan_ms, write_ms, notes, config, created_at FROM sim_summaries ORDER BY job_id;
INSERT INTO job_summary_counts (job_id, run_id, team_id, rule_id, kind, severity, open_count, new_count, fixed_count)
SELECT job_id, run_id, team_id, rule_id, kind, severity, open_count, new_count, fixed_count FROM sim_job_counts ORDER BY job_id;
\endif
COMMIT;
ANALYZE;
