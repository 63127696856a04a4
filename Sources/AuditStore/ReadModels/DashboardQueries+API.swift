import AuditModel
import Foundation
import PostgresClient

/// The JSON API's read model (`/api/runs`, `/api/teams/<t>/trend`).
extension DashboardQueries {
    public struct RunSummary: Codable, Equatable, Sendable {
        public struct Jobs: Codable, Equatable, Sendable {
            public var total, queued, running, succeeded, failed, dead, cancelled: Int
        }
        public struct Findings: Codable, Equatable, Sendable {
            public var open, new, fixed: Int
        }
        public struct Milliseconds: Codable, Equatable, Sendable {
            public var fetch, scan, write: Int
        }
        public var id: Int
        public var org: String
        public var kind: String
        public var date: String
        public var state: String
        public var createdAt: String
        public var finishedAt: String?
        /// From creation to the end of the run; nil while it runs.
        public var durationSeconds: Double?
        public var jobs: Jobs
        /// Summed over the run's jobs that wrote results.
        public var findings: Findings
        public var jobMilliseconds: Milliseconds
    }

    static let isoUTC = "YYYY-MM-DD\"T\"HH24:MI:SS\"Z\""

    /// The latest runs, newest first, as the JSON API gives them.
    public func runSummaries(limit: Int, org: String?) throws -> [RunSummary] {
        let rows = try connection.query("""
            SELECT r.id, r.org, r.kind, to_char(r.run_date, 'YYYY-MM-DD') AS run_date, r.state, r.jobs_total,
                   to_char(r.created_at AT TIME ZONE 'UTC', '\(Self.isoUTC)') AS created_at,
                   to_char(r.finished_at AT TIME ZONE 'UTC', '\(Self.isoUTC)') AS finished_at,
                   extract(epoch FROM r.finished_at - r.created_at)::float8 AS duration,
                   j.queued, j.running, j.succeeded, j.failed, j.dead, j.cancelled,
                   s.open, s.new, s.fixed, s.fetch_ms, s.scan_ms, s.write_ms
            FROM runs r
            -- A finished run carries its totals (written when it finished); a running one is counted.
            CROSS JOIN LATERAL (
                SELECT coalesce((r.totals #>> '{jobs,queued}')::bigint, 0) AS queued,
                       coalesce((r.totals #>> '{jobs,running}')::bigint, 0) AS running,
                       coalesce((r.totals #>> '{jobs,succeeded}')::bigint, 0) AS succeeded,
                       coalesce((r.totals #>> '{jobs,failed}')::bigint, 0) AS failed,
                       coalesce((r.totals #>> '{jobs,dead}')::bigint, 0) AS dead,
                       coalesce((r.totals #>> '{jobs,cancelled}')::bigint, 0) AS cancelled
                WHERE r.totals IS NOT NULL
                UNION ALL
                SELECT count(*) FILTER (WHERE state = \(JobState.queued.sql)), count(*) FILTER (WHERE state = \(JobState.running.sql)),
                       count(*) FILTER (WHERE state = \(JobState.succeeded.sql)), count(*) FILTER (WHERE state = \(JobState.failed.sql)),
                       count(*) FILTER (WHERE state = \(JobState.dead.sql)), count(*) FILTER (WHERE state = \(JobState.cancelled.sql))
                -- HAVING, not WHERE: an aggregate without GROUP BY yields a row even when WHERE keeps none.
                FROM jobs WHERE run_id = r.id HAVING r.totals IS NULL) j
            CROSS JOIN LATERAL (
                SELECT (r.totals ->> 'open')::bigint AS open, (r.totals ->> 'new')::bigint AS new, (r.totals ->> 'fixed')::bigint AS fixed,
                       (r.totals ->> 'fetch_ms')::bigint AS fetch_ms, (r.totals ->> 'scan_ms')::bigint AS scan_ms,
                       (r.totals ->> 'write_ms')::bigint AS write_ms
                WHERE r.totals IS NOT NULL
                UNION ALL
                SELECT coalesce(sum(findings_open), 0), coalesce(sum(findings_new), 0),
                       coalesce(sum(findings_fixed), 0), coalesce(sum(fetch_ms), 0),
                       coalesce(sum(scan_ms), 0), coalesce(sum(write_ms), 0)
                FROM job_summaries WHERE run_id = r.id HAVING r.totals IS NULL) s
            WHERE $2::text IS NULL OR r.org = $2
            ORDER BY r.created_at DESC, r.id DESC
            LIMIT $1
            """, [.int(limit), .optional(org)], purpose: "list the latest runs")
        return rows.map { row in
            RunSummary(
                id: row.int("id") ?? 0, org: row.string("org") ?? "", kind: row.string("kind") ?? "",
                date: row.string("run_date") ?? "", state: row.string("state") ?? "",
                createdAt: row.string("created_at") ?? "", finishedAt: row.string("finished_at"),
                durationSeconds: row.double("duration"),
                jobs: .init(total: row.int("jobs_total") ?? 0, queued: row.int("queued") ?? 0, running: row.int("running") ?? 0,
                            succeeded: row.int("succeeded") ?? 0, failed: row.int("failed") ?? 0, dead: row.int("dead") ?? 0,
                            cancelled: row.int("cancelled") ?? 0),
                findings: .init(open: row.int("open") ?? 0, new: row.int("new") ?? 0, fixed: row.int("fixed") ?? 0),
                jobMilliseconds: .init(fetch: row.int("fetch_ms") ?? 0, scan: row.int("scan_ms") ?? 0, write: row.int("write_ms") ?? 0))
        }
    }

    public struct TeamTrend: Codable, Equatable, Sendable {
        public struct Team: Codable, Equatable, Sendable {
            public var org, name, slug: String
        }
        public struct Night: Codable, Equatable, Sendable {
            public var date: String
            public var runId: Int
            /// `nightly` or `manual`: the pages label runs the same way, so two runs of one day
            /// are told apart.
            public var runKind: String
            public var runState: String
            /// Open findings of the team at the end of that night, by severity (every severity present).
            public var open: [String: Int]
            public var openTotal: Int
            public var new: Int
            public var fixed: Int
        }
        public var team: Team
        public var days: Int
        public var nights: [Night]
    }

    public enum TeamLookup: Sendable {
        case found(TeamTrend)
        case unknown
        /// The slug exists in several organisations and no `org` was given.
        case ambiguous([String])
    }

    /// Per run of the team's organisation in the last `days` days (nightly and manual, as the
    /// team page charts them): the team's open findings by severity, and its new and fixed
    /// findings, from run_rule_counts.
    public func teamTrend(slug: String, org: String?, days: Int) throws -> TeamLookup {
        let teams = try connection.query("""
            SELECT id, org, name, slug FROM teams WHERE slug = $1 AND ($2::text IS NULL OR org = $2) ORDER BY org
            """, [.text(slug), .optional(org)], purpose: "find team \(slug)")
        guard let team = teams.first, let teamID = team.int("id"), let teamOrg = team.string("org") else { return .unknown }
        if teams.count > 1 { return .ambiguous(teams.compactMap { $0.string("org") }) }
        let rows = try connection.query("""
            SELECT r.id, to_char(r.run_date, 'YYYY-MM-DD') AS night, r.kind, r.state, c.severity,
                   coalesce(sum(c.open_count), 0) AS open, coalesce(sum(c.new_count), 0) AS new,
                   coalesce(sum(c.fixed_count), 0) AS fixed
            FROM runs r
            LEFT JOIN run_rule_counts c ON c.run_id = r.id AND c.team_id = $1
            WHERE r.org = $2 AND r.run_date > current_date - $3::int
            GROUP BY r.id, r.run_date, r.kind, r.state, c.severity
            ORDER BY r.id
            """, [.int(teamID), .text(teamOrg), .int(days)], purpose: "read the trend of team \(slug)")
        var nights: [TeamTrend.Night] = []
        for row in rows {
            guard let runID = row.int("id") else { continue }
            if nights.last?.runId != runID {
                nights.append(.init(date: row.string("night") ?? "", runId: runID, runKind: row.string("kind") ?? "",
                                    runState: row.string("state") ?? "",
                                    open: Dictionary(uniqueKeysWithValues: Severity.allCases.map { ($0.rawValue, 0) }),
                                    openTotal: 0, new: 0, fixed: 0))
            }
            let open = row.int("open") ?? 0
            if let severity = row.string("severity") { nights[nights.count - 1].open[severity, default: 0] += open }
            nights[nights.count - 1].openTotal += open
            nights[nights.count - 1].new += row.int("new") ?? 0
            nights[nights.count - 1].fixed += row.int("fixed") ?? 0
        }
        return .found(TeamTrend(team: .init(org: teamOrg, name: team.string("name") ?? "", slug: team.string("slug") ?? slug),
                                days: days, nights: nights))
    }
}
