import AuditModel
import Foundation
import PostgresClient

/// What the scale benchmarks read from a simulated organisation (deploy/sim/run.sh) and the
/// nights they add to it (`a11y-audit-bench --only dashboard-sql`, `sim-render`, `sim-night`,
/// `render`). Kept in the storage module so that it alone speaks SQL; nothing here runs in the
/// product.
public struct SimulationQueries {
    public let connection: PostgresConnection

    public init(connection: PostgresConnection) { self.connection = connection }

    /// The organisation's runs, oldest first.
    public func runIDs(org: String) throws -> [Int] {
        try connection.query("SELECT id FROM runs WHERE org = $1 ORDER BY id", [.text(org)], purpose: "list runs").compactMap { $0.int("id") }
    }

    /// The team owning most repositories.
    public func largestTeam(org: String) throws -> (id: Int, name: String)? {
        try connection.query("""
            SELECT t.id, t.name FROM teams t JOIN repositories p ON p.team_id = t.id WHERE t.org = $1
            GROUP BY t.id ORDER BY count(*) DESC, t.id LIMIT 1
            """, [.text(org)], purpose: "pick the largest team").first.flatMap { row in
            row.int("id").map { ($0, row.string("name") ?? "") }
        }
    }

    public func repositoryWithMostOpenFindings() throws -> Int? {
        try connection.query("""
            SELECT repository_id FROM findings WHERE fixed_in_run IS NULL GROUP BY repository_id ORDER BY count(*) DESC LIMIT 1
            """, purpose: "pick the repository with most open findings").first?.int("repository_id")
    }

    public struct Size: Sendable {
        public var repositories = 0, runs = 0, findings = 0, open = 0
        /// The database's size, as pg_size_pretty prints it.
        public var database = "?"
    }

    public func size(org: String) throws -> Size {
        let row = try connection.query("""
            SELECT (SELECT count(*) FROM repositories WHERE org = $1) AS repositories, (SELECT count(*) FROM runs WHERE org = $1) AS runs,
                   (SELECT count(*) FROM findings) AS findings, (SELECT count(*) FROM findings WHERE fixed_in_run IS NULL) AS open,
                   pg_size_pretty(pg_database_size(current_database())) AS size
            """, [.text(org)], purpose: "measure the database").first
        return Size(repositories: row?.int("repositories") ?? 0, runs: row?.int("runs") ?? 0, findings: row?.int("findings") ?? 0,
                    open: row?.int("open") ?? 0, database: row?.string("size") ?? "?")
    }

    /// Every later statement of this session has its executed plan, with buffers, sent as a
    /// notice (auto_explain).
    public func explainEveryStatement() throws {
        try connection.query("LOAD 'auto_explain'", purpose: "load auto_explain")
        for setting in ["auto_explain.log_min_duration = 0", "auto_explain.log_analyze = on", "auto_explain.log_buffers = on",
                        "auto_explain.log_level = notice", "client_min_messages = notice"] {
            try connection.query("SET \(setting)", purpose: "configure auto_explain")
        }
        connection.keepsNotices = true
    }

    /// The organisation's active repositories, by id, or `sample` of them drawn at random.
    public func activeRepositoryIDs(org: String, sample: Int? = nil) throws -> [Int] {
        let order = sample == nil ? "id" : "random() LIMIT \(max(0, sample ?? 0))"
        return try connection.query("SELECT id FROM repositories WHERE org = $1 AND active ORDER BY \(order)", [.text(org)],
                                    purpose: "list repositories").compactMap { $0.int("id") }
    }

    /// A new nightly run the day after the organisation's latest, expecting `jobs` jobs.
    public func addNight(org: String, jobs: Int) throws -> Int {
        let rows = try connection.query("""
            INSERT INTO runs (org, kind, run_date, jobs_total)
            VALUES ($1, \(RunKind.nightly.sql), (SELECT max(run_date) + 1 FROM runs WHERE org = $1), $2) RETURNING id
            """, [.text(org), .int(jobs)], purpose: "add a night")
        guard let id = rows.first?.int("id") else { throw DatabaseError.unexpectedResult(purpose: "add a night", reason: "no id returned") }
        return id
    }

    /// A manual run of `org` on `date`.
    public func addManualRun(org: String, date: String) throws -> Int {
        let rows = try connection.query("INSERT INTO runs (org, kind, run_date) VALUES ($1, \(RunKind.manual.sql), $2::date) RETURNING id",
                                        [.text(org), .text(date)], purpose: "add a run")
        guard let id = rows.first?.int("id") else { throw DatabaseError.unexpectedResult(purpose: "add a run", reason: "no id returned") }
        return id
    }

    /// One queued nightly job of `runID` for every active repository of `org`, in one statement.
    public func enqueueNight(runID: Int, org: String) throws {
        try connection.query("""
            INSERT INTO jobs (run_id, repository_id, kind, commit_ref, archive_url)
            SELECT $1, id, '\(JobKind.nightly.rawValue)', 'main', 'file:///sim' FROM repositories WHERE org = $2 AND active
            """, [.int(runID), .text(org)], purpose: "enqueue the night")
    }

    /// The repository with the lowest id, and its team.
    public func firstRepository() throws -> (id: Int, teamID: Int?)? {
        try connection.query("SELECT id, team_id FROM repositories ORDER BY id LIMIT 1", purpose: "pick a repository").first.flatMap { row in
            row.int("id").map { ($0, row.int("team_id")) }
        }
    }

    /// A repository's open findings as a job would report them again.
    public func openFindings(repositoryID: Int) throws -> [JobResults.AttributedFinding] {
        try connection.query("""
            SELECT fingerprint, rule_id, kind, severity, certainty, team_id, path, line, column_number, message, snippet, source_line
            FROM findings WHERE repository_id = $1 AND fixed_in_run IS NULL
            """, [.int(repositoryID)], purpose: "read the open findings of repository \(repositoryID)").map { row in
            var finding = Finding(ruleID: row.string("rule_id") ?? "", kind: RuleKind(rawValue: row.string("kind") ?? "") ?? .recommendation,
                                  severity: Severity(rawValue: row.string("severity") ?? "") ?? .warning,
                                  location: SourceLocation(file: row.string("path") ?? "", line: row.int("line") ?? 1,
                                                           column: row.int("column_number") ?? 1),
                                  message: row.string("message") ?? "", fix: "", citation: Citation("HIG", ""), platforms: .all,
                                  snippet: row.string("snippet") ?? "", sourceLine: row.string("source_line") ?? "")
            finding.certainty = Certainty(rawValue: row.string("certainty") ?? "") ?? .violation
            finding.fingerprint = row.string("fingerprint") ?? ""
            return JobResults.AttributedFinding(finding: finding, teamID: row.int("team_id"))
        }
    }

    public func openFindingCount(repositoryID: Int) throws -> Int {
        try connection.query("SELECT open_findings FROM repositories WHERE id = $1", [.int(repositoryID)],
                             purpose: "read the open count").first?.int("open_findings") ?? 0
    }

    /// Findings first seen in run `runID`, and those fixed in it.
    public func newAndFixed(runID: Int) throws -> (new: Int, fixed: Int) {
        let row = try connection.query("""
            SELECT (SELECT count(*) FROM findings WHERE first_seen_run = $1) AS new, (SELECT count(*) FROM findings WHERE fixed_in_run = $1) AS fixed
            """, [.int(runID)], purpose: "count the run's new and fixed findings").first
        return (row?.int("new") ?? 0, row?.int("fixed") ?? 0)
    }

    /// Every table's size on disk and estimated rows, after VACUUM ANALYZE (so dead rows do not count).
    public func tableSizes() throws -> [String: (bytes: Int, rows: Int)] {
        try connection.query("VACUUM ANALYZE", purpose: "vacuum")
        var result: [String: (Int, Int)] = [:]
        for row in try connection.query("""
            SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes, c.reltuples::bigint AS rows
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'
            """, purpose: "measure tables") {
            result[row.string("name") ?? ""] = (row.int("bytes") ?? 0, row.int("rows") ?? 0)
        }
        return result
    }
}
