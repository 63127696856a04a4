import Foundation
import PostgresClient

/// What the benchmarks set up and read back about the queue (`a11y-audit-bench --only queue`,
/// `org`, `drain`). Kept in the storage module so that it alone speaks SQL; nothing here runs
/// in the product.
public struct QueueMeasurements {
    public let connection: PostgresConnection

    public init(connection: PostgresConnection) { self.connection = connection }

    /// A database of its own for one benchmark, created on `server` and migrated by the caller;
    /// `drop` removes it whatever it holds.
    public enum ScratchDatabase {
        public static func create(_ name: String, on server: PostgresConnection) throws {
            try server.query("CREATE DATABASE \(try identifier(name))", purpose: "create the benchmark database \(name)")
        }

        public static func drop(_ name: String, on server: PostgresConnection) throws {
            try server.query("DROP DATABASE IF EXISTS \(try identifier(name)) WITH (FORCE)", purpose: "drop the benchmark database \(name)")
        }

        /// The name as an SQL identifier: lower-case ASCII letters, digits and underscores only.
        static func identifier(_ name: String) throws -> String {
            guard !name.isEmpty, name.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }) else {
                throw DatabaseError.invalidParameter(purpose: "name a benchmark database", reason: "use a-z, 0-9 and _ only, not \(name)")
            }
            return name
        }
    }

    /// One team and one repository for queue jobs to point at; returns the repository's id.
    public func addRepository(org: String) throws -> Int {
        let rows = try connection.query("""
            WITH team AS (INSERT INTO teams (org, name, slug) VALUES ($1, 'Bench', 'bench') RETURNING id)
            INSERT INTO repositories (org, name, team_id, provider, archive_url)
            SELECT $1, $1 || '/app', id, 'url', 'file:///dev/null' FROM team RETURNING id
            """, [.text(org)], purpose: "add a benchmark repository")
        guard let id = rows.first?.int("id") else { throw DatabaseError.unexpectedResult(purpose: "add a benchmark repository", reason: "no id returned") }
        return id
    }

    /// Empties the queue and fills it with `jobs` queued manual jobs of `repositoryID`.
    public func refill(jobs: Int, repositoryID: Int) throws {
        try connection.query("TRUNCATE jobs CASCADE", purpose: "empty the queue")
        try connection.query("""
            INSERT INTO jobs (repository_id, kind, commit_ref, archive_url)
            SELECT $2, '\(JobKind.manual.rawValue)', 'c' || n, 'file:///dev/null' FROM generate_series(1, $1) AS n
            """, [.int(jobs), .int(repositoryID)], purpose: "fill the queue")
        try connection.query("VACUUM ANALYZE jobs", purpose: "vacuum the queue")
    }

    /// JobQueue.claimSQL and the statements of JobQueue.complete, as a pgbench script.
    public static var pgbenchScript: String {
        let claim = JobQueue.claimSQL.replacingOccurrences(of: "$1", with: "'pgbench'").replacingOccurrences(of: "$2", with: "300")
            .split(separator: "\n").joined(separator: " ")
        return """
            \(claim) \\gset
            BEGIN;
            SELECT state, locked_by, attempt, cancel_requested FROM jobs WHERE id = :id FOR UPDATE;
            UPDATE jobs SET state = \(JobState.succeeded.sql), finished_at = now(), lease_expires_at = NULL, commit_sha = coalesce(NULL, commit_sha) WHERE id = :id;
            SELECT pg_notify('\(JobQueue.doneChannel)', 'job:' || :id);
            COMMIT;

            """
    }

    /// A run's outcome as the organisation benchmark reports it.
    public struct RunOutcome: Sendable {
        public var state: RunState?
        public var jobs: Int
        public var succeeded: Int
        public var filesParsed: Int
        public var cacheHits: Int
        /// Mean fetch / scan / write milliseconds per job.
        public var phases: String
    }

    /// The run of `date` (there is one per date in a benchmark's database).
    public func runOutcome(date: String) throws -> RunOutcome? {
        let row = try connection.query("""
            SELECT r.state, count(j.id) FILTER (WHERE j.state = \(JobState.succeeded.sql)) AS ok, count(j.id) AS jobs,
                   (SELECT sum(files_parsed) FROM job_summaries s WHERE s.run_id = r.id) AS parsed,
                   (SELECT sum(cache_hits) FROM job_summaries s WHERE s.run_id = r.id) AS hits,
                   (SELECT round(avg(fetch_ms), 1) || ' / ' || round(avg(scan_ms), 1) || ' / ' || round(avg(write_ms), 1)
                    FROM job_summaries s WHERE s.run_id = r.id) AS phases
            FROM runs r LEFT JOIN jobs j ON j.run_id = r.id WHERE r.run_date = $1::date GROUP BY r.id
            """, [.text(date)], purpose: "read the night's results").first
        return row.map {
            RunOutcome(state: $0.string("state").flatMap(RunState.init(rawValue:)), jobs: $0.int("jobs") ?? 0, succeeded: $0.int("ok") ?? 0,
                       filesParsed: $0.int("parsed") ?? 0, cacheHits: $0.int("hits") ?? 0, phases: $0.string("phases") ?? "")
        }
    }

    // MARK: The drain

    public func count(_ state: JobState) throws -> Int {
        try connection.query("SELECT count(*) AS n FROM jobs WHERE state = $1", [.text(state.rawValue)],
                             purpose: "count \(state.rawValue) jobs").first?.int("n") ?? 0
    }

    /// The database server's clock, in seconds since 1970: job timestamps are on it.
    public func clock() throws -> Double {
        try connection.query("SELECT extract(epoch FROM clock_timestamp())::float8 AS t", purpose: "read the clock").first?.double("t") ?? 0
    }

    /// The workers holding a running job.
    public func workersHoldingJobs() throws -> [String] {
        try connection.query("SELECT DISTINCT locked_by FROM jobs WHERE state = \(JobState.running.sql) ORDER BY 1",
                             purpose: "find workers holding jobs").compactMap { $0.string("locked_by") }
    }

    /// The running jobs `worker` holds.
    public func jobsHeld(by worker: String) throws -> [Int] {
        try connection.query("SELECT id FROM jobs WHERE state = \(JobState.running.sql) AND locked_by = $1", [.text(worker)],
                             purpose: "jobs \(worker) holds").compactMap { $0.int("id") }
    }

    /// What a drain of one run left behind, for its exactly-once checks.
    public struct DrainOutcome: Sendable {
        /// When the last job finished, on the server's clock.
        public var lastFinished: Double?
        public var succeeded: Int
        /// Jobs still queued, running or failed (awaiting a retry).
        public var leftOver: Int
        /// Jobs dead or cancelled.
        public var lost: Int
        /// Jobs that took more than one attempt, by id.
        public var repeatedIDs: [Int]
        /// Jobs without exactly one summary.
        public var notOnce: Int
        public var summaries: Int
        public var runState: RunState?
        /// Mean fetch / scan / write milliseconds per job.
        public var phases: String
        /// The most jobs running at once: a sweep over each job's last attempt (claim to finish).
        public var mostRunningAtOnce: Int
    }

    public func drainOutcome() throws -> DrainOutcome {
        let row = try connection.query("""
            SELECT extract(epoch FROM max(finished_at))::float8 AS last_finished,
                   count(*) FILTER (WHERE state = \(JobState.succeeded.sql)) AS succeeded,
                   count(*) FILTER (WHERE state IN \(JobState.sqlList([.queued, .running, .failed]))) AS left_over,
                   count(*) FILTER (WHERE state IN \(JobState.sqlList([.dead, .cancelled]))) AS lost,
                   (SELECT count(*) FROM jobs j WHERE (SELECT count(*) FROM job_summaries s WHERE s.job_id = j.id) <> 1) AS not_once,
                   (SELECT count(*) FROM job_summaries) AS summaries,
                   (SELECT state FROM runs) AS run_state,
                   (SELECT round(avg(fetch_ms), 1) || ' / ' || round(avg(scan_ms), 1) || ' / ' || round(avg(write_ms), 1)
                    FROM job_summaries) AS phases,
                   (SELECT coalesce(max(running), 0) FROM (
                        SELECT sum(delta) OVER (ORDER BY at, delta) AS running FROM (
                            SELECT started_at AS at, 1 AS delta FROM jobs
                            UNION ALL SELECT finished_at, -1 FROM jobs) events) sweep) AS concurrent
            FROM jobs
            """, purpose: "read the drain's outcome").first
        let repeated = try connection.query("SELECT id FROM jobs WHERE attempt > 1 ORDER BY id", purpose: "list repeated jobs")
            .compactMap { $0.int("id") }
        return DrainOutcome(lastFinished: row?.double("last_finished"), succeeded: row?.int("succeeded") ?? 0,
                            leftOver: row?.int("left_over") ?? -1, lost: row?.int("lost") ?? -1, repeatedIDs: repeated,
                            notOnce: row?.int("not_once") ?? -1, summaries: row?.int("summaries") ?? -1,
                            runState: row?.string("run_state").flatMap(RunState.init(rawValue:)), phases: row?.string("phases") ?? "-",
                            mostRunningAtOnce: row?.int("concurrent") ?? 0)
    }
}
