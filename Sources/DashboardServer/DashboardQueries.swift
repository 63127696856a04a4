import AuditModel
import AuditStore
import Foundation
import PostgresClient

/// The database side of `/metrics` and the JSON API: read-only queries and their shapes.
struct DashboardQueries {
    let connection: PostgresConnection

    // MARK: Metrics

    /// Job phase buckets in seconds: archive fetches and scans take from tens of milliseconds
    /// (a cached night of a small repository) to many minutes (a first scan of a large one).
    static let durationBounds: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800]

    func metrics(durations: DurationTotals = DurationTotals()) throws -> String {
        var text = PrometheusText()

        let depth = try JobQueue(connection: connection).depth()
        text.family("a11y_audit_jobs", .gauge, help: "Jobs in the queue by state.")
        for state in JobState.allCases {
            text.sample("a11y_audit_jobs", [("state", state.rawValue)], Double(depth[state] ?? 0))
        }

        let bounds = Self.durationBounds
        let phases = try durations.read(connection, bounds: bounds)
        text.family("a11y_audit_job_duration_seconds", .histogram,
                    help: "Time jobs spent fetching the archive, scanning and writing results (phase=\"total\": all three), from job_summaries.")
        for phase in DurationTotals.phases {
            let totals = phases[phase] ?? DurationTotals.Phase(bounds: bounds.count)
            text.histogram("a11y_audit_job_duration_seconds", [("phase", phase)], bounds: bounds, bucketCounts: totals.buckets,
                           count: totals.count, sum: Double(totals.milliseconds) / 1000)
        }

        let findings = try connection.query("""
            SELECT r.org, o.severity, o.kind, sum(o.open_count) AS n
            FROM repository_open_counts o JOIN repositories r ON r.id = o.repository_id
            GROUP BY r.org, o.severity, o.kind ORDER BY 1, 2, 3
            """, purpose: "count open findings for /metrics")
        text.family("a11y_audit_open_findings", .gauge, help: "Open findings by organisation, severity and rule kind.")
        for row in findings {
            text.sample("a11y_audit_open_findings", [("org", row.string("org") ?? ""), ("severity", row.string("severity") ?? ""),
                                                     ("kind", row.string("kind") ?? "")], Double(row.int("n") ?? 0))
        }

        let deliveries = try connection.query("""
            SELECT event, outcome, count(*) AS n FROM webhook_deliveries GROUP BY event, outcome ORDER BY 1, 2
            """, purpose: "count webhook deliveries for /metrics")
        text.family("a11y_audit_webhook_deliveries_total", .counter,
                    help: "Webhook deliveries received, by event and outcome (rows kept within the retention period).")
        for row in deliveries {
            text.sample("a11y_audit_webhook_deliveries_total", [("event", row.string("event") ?? ""), ("outcome", row.string("outcome") ?? "")],
                        Double(row.int("n") ?? 0))
        }

        let runs = try connection.query("""
            SELECT org, extract(epoch FROM max(finished_at))::float8 AS finished,
                   (SELECT state FROM runs latest WHERE latest.org = runs.org ORDER BY created_at DESC, id DESC LIMIT 1) AS state
            FROM runs GROUP BY org ORDER BY org
            """, purpose: "read the latest runs for /metrics")
        text.family("a11y_audit_last_run_finished_timestamp_seconds", .gauge,
                    help: "When the organisation's most recent finished run ended (Unix time): alert when it grows old.")
        for row in runs {
            if let finished = row.double("finished") {
                text.sample("a11y_audit_last_run_finished_timestamp_seconds", [("org", row.string("org") ?? "")], finished)
            }
        }
        text.family("a11y_audit_latest_run", .gauge, help: "1 for the state of the organisation's most recent run.")
        for row in runs {
            text.sample("a11y_audit_latest_run", [("org", row.string("org") ?? ""), ("state", row.string("state") ?? "")], 1)
        }
        return text.text
    }

    // MARK: JSON API

    struct RunSummary: Codable, Equatable {
        struct Jobs: Codable, Equatable {
            var total, queued, running, succeeded, failed, dead, cancelled: Int
        }
        struct Findings: Codable, Equatable {
            var open, new, fixed: Int
        }
        struct Milliseconds: Codable, Equatable {
            var fetch, scan, write: Int
        }
        var id: Int
        var org: String
        var kind: String
        var date: String
        var state: String
        var createdAt: String
        var finishedAt: String?
        /// From creation to the end of the run; nil while it runs.
        var durationSeconds: Double?
        var jobs: Jobs
        /// Summed over the run's jobs that wrote results.
        var findings: Findings
        var jobMilliseconds: Milliseconds
    }

    static let isoUTC = "YYYY-MM-DD\"T\"HH24:MI:SS\"Z\""

    func runs(limit: Int, org: String?) throws -> [RunSummary] {
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
                SELECT count(*) FILTER (WHERE state = 'queued'), count(*) FILTER (WHERE state = 'running'),
                       count(*) FILTER (WHERE state = 'succeeded'), count(*) FILTER (WHERE state = 'failed'),
                       count(*) FILTER (WHERE state = 'dead'), count(*) FILTER (WHERE state = 'cancelled')
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

    struct TeamTrend: Codable, Equatable {
        struct Team: Codable, Equatable {
            var org, name, slug: String
        }
        struct Night: Codable, Equatable {
            var date: String
            var runId: Int
            var runState: String
            /// Open findings of the team at the end of that night, by severity (every severity present).
            var open: [String: Int]
            var openTotal: Int
            var new: Int
            var fixed: Int
        }
        var team: Team
        var days: Int
        var nights: [Night]
    }

    enum TeamLookup {
        case found(TeamTrend)
        case unknown
        /// The slug exists in several organisations and no `org` was given.
        case ambiguous([String])
    }

    /// Per nightly run of the team's organisation in the last `days` days: the team's open
    /// findings by severity, and its new and fixed findings, from run_rule_counts.
    func teamTrend(slug: String, org: String?, days: Int) throws -> TeamLookup {
        let teams = try connection.query("""
            SELECT id, org, name, slug FROM teams WHERE slug = $1 AND ($2::text IS NULL OR org = $2) ORDER BY org
            """, [.text(slug), .optional(org)], purpose: "find team \(slug)")
        guard let team = teams.first, let teamID = team.int("id"), let teamOrg = team.string("org") else { return .unknown }
        if teams.count > 1 { return .ambiguous(teams.compactMap { $0.string("org") }) }
        let rows = try connection.query("""
            SELECT r.id, to_char(r.run_date, 'YYYY-MM-DD') AS night, r.state, c.severity,
                   coalesce(sum(c.open_count), 0) AS open, coalesce(sum(c.new_count), 0) AS new,
                   coalesce(sum(c.fixed_count), 0) AS fixed
            FROM runs r
            LEFT JOIN run_rule_counts c ON c.run_id = r.id AND c.team_id = $1
            WHERE r.org = $2 AND r.kind = 'nightly' AND r.run_date > current_date - $3::int
            GROUP BY r.id, r.run_date, r.state, c.severity
            ORDER BY r.run_date, r.id
            """, [.int(teamID), .text(teamOrg), .int(days)], purpose: "read the trend of team \(slug)")
        var nights: [TeamTrend.Night] = []
        for row in rows {
            guard let runID = row.int("id") else { continue }
            if nights.last?.runId != runID {
                nights.append(.init(date: row.string("night") ?? "", runId: runID, runState: row.string("state") ?? "",
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

/// The job-duration histogram's running totals for one server process. Summaries written more
/// than `settleSeconds` ago are counted once and kept here; newer ones, whose transactions may
/// still be committing, are counted afresh at each scrape. A scrape so reads the last minutes
/// of summaries instead of the whole retained history (900,000 summaries took 460 ms to count,
/// docs/scaling.md). The totals only grow, as Prometheus counters should: a summary removed by
/// retention after it was counted stays counted.
final class DurationTotals: @unchecked Sendable {
    struct Phase: Equatable {
        var buckets: [Int]
        var count = 0
        var milliseconds = 0
        init(bounds: Int) { buckets = Array(repeating: 0, count: bounds) }
        mutating func add(_ other: Phase) {
            for index in buckets.indices where index < other.buckets.count { buckets[index] += other.buckets[index] }
            count += other.count
            milliseconds += other.milliseconds
        }
    }

    static let phases = ["fetch", "scan", "write", "total"]
    /// Far longer than a completing transaction takes between writing its summary and committing.
    let settleSeconds: Double
    private let lock = NSLock()
    private var settledBefore: String?
    private var settled: [String: Phase] = [:]

    init(settleSeconds: Double = 600) { self.settleSeconds = settleSeconds }

    func read(_ connection: PostgresConnection, bounds: [Double]) throws -> [String: Phase] {
        lock.lock()
        defer { lock.unlock() }
        let cut = try connection.query("SELECT (now() - make_interval(secs => $1))::text AS cut", [.double(settleSeconds)],
                                       purpose: "read the clock for /metrics").first?.string("cut") ?? ""
        let newlySettled = try count(connection, bounds: bounds, from: settledBefore, to: cut)
        var totals = settled
        for (phase, value) in newlySettled { totals[phase, default: Phase(bounds: bounds.count)].add(value) }
        settled = totals
        settledBefore = cut
        for (phase, value) in try count(connection, bounds: bounds, from: cut, to: nil) {
            totals[phase, default: Phase(bounds: bounds.count)].add(value)
        }
        return totals
    }

    /// Summaries written in [from, to): the index on job_summaries (created_at) finds them.
    private func count(_ connection: PostgresConnection, bounds: [Double], from: String?, to: String?) throws -> [String: Phase] {
        let bucketColumns = bounds.indices.map { "count(*) FILTER (WHERE ms <= $\($0 + 3)::float8 * 1000) AS b\($0)" }
            .joined(separator: ", ")
        let rows = try connection.query("""
            WITH recent AS (SELECT fetch_ms, scan_ms, write_ms FROM job_summaries
                            WHERE ($1::timestamptz IS NULL OR created_at >= $1) AND ($2::timestamptz IS NULL OR created_at < $2))
            SELECT phase, count(*) AS n, coalesce(sum(ms), 0) AS total_ms, \(bucketColumns)
            FROM (SELECT 'fetch' AS phase, fetch_ms AS ms FROM recent
                  UNION ALL SELECT 'scan', scan_ms FROM recent
                  UNION ALL SELECT 'write', write_ms FROM recent
                  UNION ALL SELECT 'total', fetch_ms + scan_ms + write_ms FROM recent) AS phases
            GROUP BY phase
            """, [.optional(from), .optional(to)] + bounds.map { .double($0) }, purpose: "read job durations for /metrics")
        var phases: [String: Phase] = [:]
        for row in rows {
            guard let phase = row.string("phase") else { continue }
            var value = Phase(bounds: bounds.count)
            value.buckets = bounds.indices.map { row.int("b\($0)") ?? 0 }
            value.count = row.int("n") ?? 0
            value.milliseconds = row.int("total_ms") ?? 0
            phases[phase] = value
        }
        return phases
    }
}
