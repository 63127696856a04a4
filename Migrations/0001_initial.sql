-- Teams and repositories of an organisation, nightly runs, the job queue, the findings history,
-- per-job summaries, webhook deliveries, pull-request checks and the per-file cache.
-- Never edit this file after it lands: add a new numbered migration instead.

CREATE TABLE teams (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    org         text NOT NULL,
    name        text NOT NULL,
    slug        text NOT NULL,
    -- CODEOWNERS owners (`@org/team`, `@user`, e-mail) that stand for this team.
    owners      text[] NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (org, name),
    UNIQUE (org, slug)
);

CREATE TABLE repositories (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    org            text NOT NULL,
    name           text NOT NULL,
    team_id        bigint REFERENCES teams (id) ON DELETE SET NULL,
    default_branch text NOT NULL DEFAULT 'main',
    provider       text NOT NULL CHECK (provider IN ('github', 'gitlab', 'url')),
    -- For provider 'url': the archive's URL; `{ref}` in it is replaced by the commit or branch.
    archive_url    text,
    active         boolean NOT NULL DEFAULT true,
    -- The newest run whose results were applied to `findings`: history is applied in run order,
    -- and an open finding was last seen in this run (so open findings are not rewritten nightly).
    last_run_id    bigint,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (org, name)
);

CREATE TABLE runs (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    org         text NOT NULL,
    kind        text NOT NULL CHECK (kind IN ('nightly', 'manual')),
    -- The night this run audits, as a date in the schedule's time zone.
    run_date    date NOT NULL,
    state       text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'succeeded', 'failed', 'cancelled')),
    jobs_total  integer NOT NULL DEFAULT 0,
    created_by  text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
);
-- One nightly run per organisation and date: two coordinators cannot both schedule it.
CREATE UNIQUE INDEX runs_one_nightly_per_date ON runs (org, run_date) WHERE kind = 'nightly';
CREATE INDEX runs_by_org_and_time ON runs (org, created_at DESC);

CREATE TABLE jobs (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id           bigint REFERENCES runs (id) ON DELETE CASCADE,
    repository_id    bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
    kind             text NOT NULL CHECK (kind IN ('nightly', 'manual', 'pr')),
    commit_ref       text NOT NULL,
    commit_sha       text,
    archive_url      text NOT NULL,
    pr_number        integer,
    base_sha         text,
    base_ref         text,
    -- Pull-request jobs: the base commit's archive, audited when no stored result covers it.
    base_archive_url text,
    -- queued -> running -> succeeded | failed (waiting for its retry) -> running ... | dead; cancelled.
    state            text NOT NULL DEFAULT 'queued'
                     CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'dead', 'cancelled')),
    priority         integer NOT NULL DEFAULT 0,
    attempt          integer NOT NULL DEFAULT 0,
    max_attempts     integer NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
    run_after        timestamptz NOT NULL DEFAULT now(),
    locked_by        text,
    lease_expires_at timestamptz,
    heartbeat_at     timestamptz,
    cancel_requested boolean NOT NULL DEFAULT false,
    last_error       text,
    -- Every failed attempt: [{"attempt": n, "worker": "...", "error": "...", "at": "..."}].
    errors           jsonb NOT NULL DEFAULT '[]',
    created_at       timestamptz NOT NULL DEFAULT now(),
    started_at       timestamptz,
    finished_at      timestamptz
);
-- The claim: highest priority first, then oldest, among jobs that may run.
CREATE INDEX jobs_claim ON jobs (priority DESC, id) WHERE state IN ('queued', 'failed');
-- The rescuer: running jobs by lease expiry.
CREATE INDEX jobs_leases ON jobs (lease_expires_at) WHERE state = 'running';
CREATE INDEX jobs_by_run ON jobs (run_id, state);
CREATE INDEX jobs_by_repository ON jobs (repository_id, created_at DESC);
-- The same repository, commit and kind never waits twice. (One may wait while another runs:
-- a branch audited again after the running audit started sees newer commits.)
CREATE UNIQUE INDEX jobs_not_queued_twice ON jobs (repository_id, commit_ref, kind)
    WHERE state IN ('queued', 'failed');

-- One row per distinct finding of a repository, keyed by fingerprint; storage grows with
-- distinct findings, not with nights.
CREATE TABLE findings (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    repository_id  bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
    fingerprint    text NOT NULL,
    rule_id        text NOT NULL,
    kind           text NOT NULL,
    severity       text NOT NULL,
    team_id        bigint REFERENCES teams (id) ON DELETE SET NULL,
    path           text NOT NULL,
    line           integer NOT NULL,
    column_number  integer NOT NULL,
    message        text NOT NULL,
    snippet        text NOT NULL,
    source_line    text NOT NULL,
    first_seen_run bigint NOT NULL,
    -- NULL while open (then it was last seen in repositories.last_run_id).
    last_seen_run  bigint,
    fixed_in_run   bigint,
    first_seen_at  timestamptz NOT NULL DEFAULT now(),
    fixed_at       timestamptz,
    UNIQUE (repository_id, fingerprint)
);
CREATE INDEX findings_open ON findings (repository_id, path) WHERE fixed_in_run IS NULL;
CREATE INDEX findings_new_in_run ON findings (first_seen_run, team_id);
CREATE INDEX findings_fixed_in_run ON findings (fixed_in_run, team_id) WHERE fixed_in_run IS NOT NULL;

-- What one job found, written in the same transaction as its findings; keyed by job, so a job
-- is never counted twice.
CREATE TABLE job_summaries (
    job_id          bigint PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
    run_id          bigint REFERENCES runs (id) ON DELETE CASCADE,
    repository_id   bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
    commit_sha      text,
    history_applied boolean NOT NULL,
    files_scanned   integer NOT NULL,
    files_parsed    integer NOT NULL,
    cache_hits      integer NOT NULL,
    findings_open   integer NOT NULL,
    findings_new    integer NOT NULL,
    findings_fixed  integer NOT NULL,
    suppressed      integer NOT NULL DEFAULT 0,
    fetch_ms        integer NOT NULL,
    scan_ms         integer NOT NULL,
    write_ms        integer NOT NULL,
    notes           jsonb NOT NULL DEFAULT '[]',
    config          jsonb,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_summaries_by_run ON job_summaries (run_id);
CREATE INDEX job_summaries_by_repository ON job_summaries (repository_id, run_id DESC);

-- Pre-aggregated counts for the trend charts: per job, team, rule and severity.
CREATE TABLE job_summary_counts (
    job_id      bigint NOT NULL REFERENCES job_summaries (job_id) ON DELETE CASCADE,
    run_id      bigint,
    team_id     bigint,
    rule_id     text NOT NULL,
    kind        text NOT NULL,
    severity    text NOT NULL,
    open_count  integer NOT NULL,
    new_count   integer NOT NULL,
    fixed_count integer NOT NULL,
    UNIQUE NULLS NOT DISTINCT (job_id, team_id, rule_id, severity)
);
CREATE INDEX job_summary_counts_by_run ON job_summary_counts (run_id, team_id);

CREATE TABLE webhook_deliveries (
    delivery_id text PRIMARY KEY,
    event       text NOT NULL,
    action      text,
    repository  text,
    outcome     text NOT NULL,
    job_id      bigint REFERENCES jobs (id) ON DELETE SET NULL,
    received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_by_time ON webhook_deliveries (received_at);

CREATE TABLE pr_checks (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    repository_id      bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
    pr_number          integer NOT NULL,
    head_sha           text NOT NULL,
    base_sha           text NOT NULL,
    base_ref           text NOT NULL,
    job_id             bigint REFERENCES jobs (id) ON DELETE SET NULL,
    state              text NOT NULL DEFAULT 'pending'
                       CHECK (state IN ('pending', 'success', 'failure', 'error', 'cancelled')),
    -- When the check fails: on new requirement-level findings, on any new finding, or never.
    gate               text NOT NULL DEFAULT 'requirements' CHECK (gate IN ('requirements', 'any', 'never')),
    new_count          integer,
    fixed_count        integer,
    unchanged_count    integer,
    results            jsonb,
    -- Reporting back to GitHub: the state last posted, and failed attempts (retried until posted).
    reported_state     text,
    status_reported_at timestamptz,
    report_attempts    integer NOT NULL DEFAULT 0,
    report_error       text,
    -- A reporter has taken the check until then (it talks to GitHub outside any transaction).
    reporting_until    timestamptz,
    check_run_id       bigint,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    UNIQUE (repository_id, pr_number, head_sha)
);
CREATE INDEX pr_checks_to_report ON pr_checks (updated_at) WHERE reported_state IS DISTINCT FROM state;

-- The scanner's per-file cache: (tool build, rules, config, platform context, path, content)
-- -> that file's findings. `last_used` is refreshed at most weekly, so hits cost no writes.
-- Rows belong to one repository (loaded together before its scan); the same file in two
-- repositories is two rows.
CREATE TABLE file_cache (
    repository_id bigint NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
    cache_key     text NOT NULL,
    entry         bytea NOT NULL,
    last_used     date NOT NULL DEFAULT current_date,
    PRIMARY KEY (repository_id, cache_key)
);
CREATE INDEX file_cache_by_last_use ON file_cache (last_used);

-- Settings an organisation's config sets that the database needs (retention).
CREATE TABLE org_settings (
    org            text PRIMARY KEY,
    retention_days integer NOT NULL DEFAULT 400 CHECK (retention_days > 0),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
