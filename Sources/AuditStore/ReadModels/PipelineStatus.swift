import Foundation
import PostgresClient

/// `a11y-audit status`: a run's state, its jobs by state, failures with their reasons, and what
/// the run found. Plain text for terminals and scripts.
public struct PipelineStatus {
    public let connection: PostgresConnection

    public init(connection: PostgresConnection) { self.connection = connection }

    public func render(runID: Int? = nil) throws -> String {
        let runs = try connection.query("""
            SELECT id, org, kind, run_date::text AS date, state, jobs_total,
                   to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS created,
                   round(extract(epoch FROM coalesce(finished_at, now()) - created_at)::numeric, 1)::text AS seconds
            FROM runs WHERE ($1::bigint IS NULL OR id = $1) ORDER BY id DESC LIMIT 1
            """, [.optional(runID)], purpose: "read the latest run")
        var out = ""
        let depth = try JobQueue(connection: connection).depth()
        out += "queue: " + JobState.allCases.map { "\($0.rawValue) \(depth[$0] ?? 0)" }.joined(separator: ", ") + "\n"
        guard let run = runs.first, let id = run.int("id") else {
            return out + (runID.map { "no run \($0)\n" } ?? "no runs yet\n")
        }
        out += "run \(id) (\(run.string("org") ?? "") \(run.string("kind") ?? "") \(run.string("date") ?? "")): \(run.string("state") ?? "")"
        out += ", \(run.int("jobs_total") ?? 0) jobs, started \(run.string("created") ?? "") UTC, \(run.string("seconds") ?? "?") s\n"
        let states = try connection.query("SELECT state, count(*) AS n FROM jobs WHERE run_id = $1 GROUP BY state ORDER BY state",
                                          [.int(id)], purpose: "count the run's jobs")
        out += "  jobs: " + states.map { "\($0.string("state") ?? "") \($0.int("n") ?? 0)" }.joined(separator: ", ") + "\n"
        let totals = try connection.query("""
            SELECT coalesce(sum(findings_open), 0) AS open, coalesce(sum(findings_new), 0) AS new,
                   coalesce(sum(findings_fixed), 0) AS fixed, coalesce(sum(files_scanned), 0) AS files,
                   coalesce(sum(files_parsed), 0) AS parsed
            FROM job_summaries WHERE run_id = $1
            """, [.int(id)], purpose: "sum the run's findings").first
        out += "  findings: \(totals?.int("open") ?? 0) open, \(totals?.int("new") ?? 0) new, \(totals?.int("fixed") ?? 0) fixed"
        out += " (\(totals?.int("files") ?? 0) files checked, \(totals?.int("parsed") ?? 0) parsed)\n"
        let repositories = try connection.query("""
            SELECT r.name, j.state, j.attempt, s.findings_open, s.findings_new, s.findings_fixed, j.last_error
            FROM jobs j JOIN repositories r ON r.id = j.repository_id LEFT JOIN job_summaries s ON s.job_id = j.id
            WHERE j.run_id = $1 ORDER BY r.name
            """, [.int(id)], purpose: "list the run's repositories")
        for row in repositories {
            var line = "  \(row.string("name") ?? ""): \(row.string("state") ?? "")"
            if let open = row.int("findings_open") {
                line += ", \(open) open, \(row.int("findings_new") ?? 0) new, \(row.int("findings_fixed") ?? 0) fixed"
            }
            if let error = row.string("last_error"), row.string("state") != "succeeded" {
                line += " (attempt \(row.int("attempt") ?? 0): \(error))"
            }
            out += line + "\n"
        }
        return out
    }
}
