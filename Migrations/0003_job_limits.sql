-- Each job's checks run in a child process with a wall-clock and a memory limit. The
-- organisation config sets them (limits.jobSeconds, limits.jobMemoryMB); a job without them
-- takes the worker's defaults.
ALTER TABLE jobs
    ADD COLUMN time_limit_seconds integer CHECK (time_limit_seconds > 0),
    ADD COLUMN memory_limit_mb integer CHECK (memory_limit_mb > 0);
