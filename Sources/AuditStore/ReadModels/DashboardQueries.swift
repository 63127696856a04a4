import AuditModel
import Foundation
import PostgresClient

/// The dashboard's read model: every query the pages need, returning plain values. Trends read
/// roll-ups (`run_rule_counts`, `repository_open_counts`, job summaries); lists read `findings`
/// through their indexes. Migrations/0002_rollups.sql says what each roll-up holds.
public struct DashboardQueries {
    public let connection: PostgresConnection

    public init(connection: PostgresConnection) { self.connection = connection }

    public struct Run: Sendable, Equatable {
        public var id: Int
        public var org: String
        public var kind: RunKind
        public var date: String
        public var state: RunState
        public var jobsTotal: Int
        public var startedAt: String
        public var durationSeconds: Double
        public var jobsByState: [JobState: Int]
        /// Existing findings recorded as the baseline of first audits (not new).
        public var baseline: Int = 0
    }

    public struct Team: Sendable, Equatable {
        public var id: Int
        public var name: String
        public var slug: String
        public var openRequirements: Int
        public var openTotal: Int
        /// New minus fixed in the latest run (positive: worse than the night before).
        public var change: Int
        public var newInLatest: Int
        public var fixedInLatest: Int
        /// New requirement-level violations in the latest run (review findings, reported at note
        /// severity, are not violations): what a team must act on first.
        public var newRequirementsInLatest: Int = 0
    }

    public struct Repository: Sendable, Equatable {
        public var id: Int
        public var name: String
        public var teamID: Int?
        public var teamName: String?
        public var teamSlug: String?
        public var open: Int
        public var openRequirements: Int
        public var lastRunID: Int?
        public var active: Bool
        /// `github`, `gitlab` or `url`, and the archive URL it is fetched from: where its files
        /// can be linked.
        public var provider: String = "url"
        public var archiveURL: String?
        /// The platforms its app builds for, from its latest audit; nil: not known.
        public var platforms: PlatformSet? = nil
    }

    public struct Finding: Sendable, Equatable {
        public var id: Int
        public var repositoryID: Int
        public var repository: String
        public var teamID: Int?
        public var ruleID: String
        public var kind: RuleKind
        public var severity: Severity
        public var certainty: Certainty
        public var path: String
        public var line: Int
        public var column: Int
        public var message: String
        public var snippet: String
        public var sourceLine: String
        public var firstSeenRun: Int
        public var fixedInRun: Int?
        /// The mechanical fix `a11y-audit fix` would apply, if there is one.
        public var correction: Correction?

        public init(id: Int, repositoryID: Int, repository: String, teamID: Int?, ruleID: String, kind: RuleKind, severity: Severity,
                    path: String, line: Int, column: Int, message: String, snippet: String, sourceLine: String, firstSeenRun: Int,
                    fixedInRun: Int?, certainty: Certainty = .violation, correction: Correction? = nil) {
            self.certainty = certainty
            self.correction = correction
            self.id = id; self.repositoryID = repositoryID; self.repository = repository; self.teamID = teamID; self.ruleID = ruleID
            self.kind = kind; self.severity = severity; self.path = path; self.line = line; self.column = column; self.message = message
            self.snippet = snippet; self.sourceLine = sourceLine; self.firstSeenRun = firstSeenRun; self.fixedInRun = fixedInRun
        }
    }

    /// One night of a trend: open findings by severity, and how many were new and fixed.
    public struct Night: Sendable, Equatable {
        public var runID: Int
        public var date: String
        public var kind: RunKind = .nightly
        public var openBySeverity: [String: Int]
        public var new: Int
        public var fixed: Int
        public var open: Int { openBySeverity.values.reduce(0, +) }
    }

    public struct Job: Sendable, Equatable {
        public var id: Int
        public var runID: Int?
        public var repositoryID: Int
        public var repository: String
        public var kind: JobKind
        public var state: JobState
        public var attempt: Int
        public var maxAttempts: Int
        public var commitRef: String
        public var commitSHA: String?
        public var lastError: String?
        /// `[{attempt, worker, error, at}]` as JSON text.
        public var errorsJSON: String
        public var createdAt: String
        public var startedAt: String?
        public var finishedAt: String?
        public var filesScanned: Int?
        public var filesParsed: Int?
        public var cacheHits: Int?
        public var open: Int?
        public var new: Int?
        public var fixed: Int?
        public var suppressed: Int?
        public var fetchMilliseconds: Int?
        public var scanMilliseconds: Int?
        public var writeMilliseconds: Int?
        public var notesJSON: String?
        public var configJSON: String?
    }

    static let timestamp = "YYYY-MM-DD HH24:MI:SS"

    // MARK: Runs

    public func orgs() throws -> [String] {
        try connection.query("SELECT DISTINCT org FROM repositories ORDER BY org", purpose: "list organisations")
            .compactMap { $0.string("org") }
    }

    public func runs(org: String, limit: Int = 90) throws -> [Run] {
        let rows = try connection.query("""
            SELECT r.id, r.org, r.kind, r.run_date::text AS date, r.state, r.jobs_total,
                   to_char(r.created_at AT TIME ZONE 'UTC', '\(Self.timestamp)') AS started,
                   extract(epoch FROM coalesce(r.finished_at, now()) - r.created_at) AS seconds,
                   -- A finished run keeps its counts by state; a running one is counted.
                   coalesce((SELECT string_agg(key || '=' || value, ',') FROM jsonb_each_text(r.totals -> 'jobs')),
                            (SELECT string_agg(state || '=' || n, ',') FROM
                                (SELECT state, count(*) AS n FROM jobs WHERE run_id = r.id GROUP BY state) s)) AS states,
                   coalesce((r.totals ->> 'baseline')::bigint,
                            (SELECT sum(findings_baseline) FROM job_summaries WHERE run_id = r.id AND r.totals IS NULL), 0) AS baseline
            FROM runs r WHERE r.org = $1 ORDER BY r.id DESC LIMIT $2
            """, [.text(org), .int(limit)], purpose: "list the runs of \(org)")
        return rows.map { row in
            var states: [JobState: Int] = [:]
            for pair in (row.string("states") ?? "").split(separator: ",") {
                let parts = pair.split(separator: "=")
                if parts.count == 2, let state = JobState(rawValue: String(parts[0])), let count = Int(parts[1]) { states[state] = count }
            }
            return Run(id: row.int("id") ?? 0, org: row.string("org") ?? "", kind: row.string("kind").flatMap(RunKind.init(rawValue:)) ?? .manual,
                       date: row.string("date") ?? "", state: row.string("state").flatMap(RunState.init(rawValue:)) ?? .running, jobsTotal: row.int("jobs_total") ?? 0, startedAt: row.string("started") ?? "",
                       durationSeconds: row.double("seconds") ?? 0, jobsByState: states, baseline: row.int("baseline") ?? 0)
        }
    }

    // MARK: Trends

    /// Per run, oldest first: open findings by severity, new and fixed, for the whole
    /// organisation or one team (`teamID`) or one repository. Finished runs are read from their
    /// roll-up (`run_rule_counts`), a repository's from its job summaries.
    public func trend(org: String, teamID: Int? = nil, repositoryID: Int? = nil, nights: Int = 90) throws -> [Night] {
        let rows: PostgresRows
        if let repositoryID {
            rows = try connection.query("""
                SELECT r.id, r.run_date::text AS date, r.kind, v.severity, v.open, v.new, v.fixed
                FROM (SELECT id, run_date, kind FROM runs WHERE org = $1 ORDER BY id DESC LIMIT $2) r
                -- A repository audited twice in one run (a manual re-run): its last job counts.
                CROSS JOIN LATERAL (SELECT * FROM job_summaries s WHERE s.run_id = r.id AND s.repository_id = $3
                                    ORDER BY s.job_id DESC LIMIT 1) s
                CROSS JOIN LATERAL (VALUES ('error', s.open_error, s.findings_new, s.findings_fixed), ('warning', s.open_warning, 0, 0),
                                           ('note', s.open_note, 0, 0)) AS v (severity, open, new, fixed)
                ORDER BY r.id
                """, [.text(org), .int(nights), .int(repositoryID)], purpose: "read the trend of repository \(repositoryID)")
        } else {
            rows = try connection.query("""
                SELECT r.id, r.run_date::text AS date, r.kind, c.severity,
                       sum(c.open_count) AS open, sum(c.new_count) AS new, sum(c.fixed_count) AS fixed
                FROM (SELECT id, run_date, kind FROM runs WHERE org = $1 ORDER BY id DESC LIMIT $2) r
                JOIN run_rule_counts c ON c.run_id = r.id
                WHERE ($3::bigint IS NULL OR c.team_id = $3)
                GROUP BY r.id, r.run_date, r.kind, c.severity
                ORDER BY r.id
                """, [.text(org), .int(nights), .optional(teamID)], purpose: "read the trend of \(org)")
        }
        var nightsByRun: [Int: Night] = [:]
        var order: [Int] = []
        for row in rows {
            guard let run = row.int("id") else { continue }
            if nightsByRun[run] == nil {
                nightsByRun[run] = Night(runID: run, date: row.string("date") ?? "",
                                         kind: row.string("kind").flatMap(RunKind.init(rawValue:)) ?? .nightly, openBySeverity: [:],
                                         new: 0, fixed: 0)
                order.append(run)
            }
            nightsByRun[run]?.openBySeverity[row.string("severity") ?? "", default: 0] += row.int("open") ?? 0
            nightsByRun[run]?.new += row.int("new") ?? 0
            nightsByRun[run]?.fixed += row.int("fixed") ?? 0
        }
        return order.compactMap { nightsByRun[$0] }
    }

    /// Open findings per run of each repository of a team (sparklines), oldest first.
    public func repositoryTrends(org: String, teamID: Int, nights: Int = 30) throws -> [Int: [Int]] {
        // Driven from the team's repositories, each reading its own recent summaries by index.
        let rows = try connection.query("""
            SELECT p.id AS repository_id, s.findings_open
            FROM repositories p
            CROSS JOIN LATERAL (
                SELECT s.run_id, s.findings_open FROM job_summaries s
                WHERE s.repository_id = p.id
                  AND s.run_id >= (SELECT min(id) FROM (SELECT id FROM runs WHERE org = $1 ORDER BY id DESC LIMIT $3) recent)
                ORDER BY s.run_id DESC LIMIT $3) s
            WHERE p.org = $1 AND p.team_id = $2 AND s.run_id IS NOT NULL
            ORDER BY p.id, s.run_id
            """, [.text(org), .int(teamID), .int(nights)], purpose: "read the repository trends of team \(teamID)")
        var trends: [Int: [Int]] = [:]
        for row in rows {
            if let repository = row.int("repository_id") { trends[repository, default: []].append(row.int("findings_open") ?? 0) }
        }
        return trends
    }

    // MARK: Teams and repositories

    public func teams(org: String, latestRun: Int?) throws -> [Team] {
        let rows = try connection.query("""
            SELECT t.id, t.name, t.slug, coalesce(o.requirements, 0) AS requirements, coalesce(o.total, 0) AS total,
                   coalesce(c.new, 0) AS new, coalesce(c.fixed, 0) AS fixed, coalesce(c.new_requirements, 0) AS new_requirements
            FROM teams t
            LEFT JOIN (SELECT o.team_id, sum(o.open_count) FILTER (WHERE o.kind = 'requirement') AS requirements, sum(o.open_count) AS total
                       FROM repository_open_counts o JOIN repositories p ON p.id = o.repository_id AND p.active
                       WHERE p.org = $1 GROUP BY o.team_id) o ON o.team_id = t.id
            LEFT JOIN (SELECT team_id, sum(new_count) AS new, sum(fixed_count) AS fixed,
                              sum(new_count) FILTER (WHERE \(Self.violatesRequirement())) AS new_requirements
                       FROM run_rule_counts WHERE run_id = $2 GROUP BY team_id) c ON c.team_id = t.id
            WHERE t.org = $1
            ORDER BY requirements DESC, total DESC, t.name
            """, [.text(org), .optional(latestRun)], purpose: "rank the teams of \(org)")
        return rows.map { row in
            let new = row.int("new") ?? 0, fixed = row.int("fixed") ?? 0
            return Team(id: row.int("id") ?? 0, name: row.string("name") ?? "", slug: row.string("slug") ?? "",
                        openRequirements: row.int("requirements") ?? 0, openTotal: row.int("total") ?? 0,
                        change: new - fixed, newInLatest: new, fixedInLatest: fixed,
                        newRequirementsInLatest: row.int("new_requirements") ?? 0)
        }
    }

    /// What run `runID` found new, per team: the rules and the repositories with new findings,
    /// most first (a baseline is not new).
    public struct NewInRun: Sendable, Equatable {
        /// By rule: `name` is the rule id.
        public var rules: [NamedCount] = []
        public var repositories: [NamedCount] = []
        public init() {}
    }

    public func newInRun(_ runID: Int) throws -> [Int?: NewInRun] {
        var byTeam: [Int?: NewInRun] = [:]
        for row in try connection.query("""
            SELECT team_id, rule_id, sum(new_count) AS n FROM run_rule_counts WHERE run_id = $1 AND new_count > 0
            GROUP BY team_id, rule_id ORDER BY n DESC, rule_id
            """, [.int(runID)], purpose: "count run \(runID)'s new findings by team and rule") {
            byTeam[row.int("team_id"), default: NewInRun()].rules.append(.init(id: nil, name: row.string("rule_id") ?? "", count: row.int("n") ?? 0))
        }
        // By the finding's owner (CODEOWNERS), as the team pages count them.
        for row in try connection.query("""
            SELECT f.team_id, p.id, p.name, count(*) AS n FROM findings f JOIN repositories p ON p.id = f.repository_id
            WHERE f.first_seen_run = $1 AND NOT f.baseline
            GROUP BY f.team_id, p.id, p.name ORDER BY n DESC, p.name
            """, [.int(runID)], purpose: "count run \(runID)'s new findings by team and repository") {
            byTeam[row.int("team_id"), default: NewInRun()].repositories.append(.init(id: row.int("id"), name: row.string("name") ?? "", count: row.int("n") ?? 0))
        }
        return byTeam
    }

    /// Where a team's open findings are: each active repository holding findings the team owns,
    /// its own repositories and those where CODEOWNERS gives it files, most findings first.
    public struct OwnedOpen: Sendable, Equatable {
        public var repositoryID: Int
        public var repository: String
        /// The repository's own team, when it is another team.
        public var otherTeam: String?
        public var open: Int
        /// Requirement-level violations (review findings are reported at note severity).
        public var requirements: Int
    }

    /// A count of something named: a team, a repository (with their ids) or a rule.
    public struct NamedCount: Sendable, Equatable {
        public var id: Int?
        public var name: String
        public var count: Int
    }

    /// A requirement-level violation in a roll-up row (`kind`, `severity` of `alias`): review
    /// findings are reported at note severity, so the roll-ups tell them apart by it.
    static func violatesRequirement(_ alias: String? = nil) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return "\(prefix)kind = '\(RuleKind.requirement.rawValue)' AND \(prefix)severity <> '\(Severity.note.rawValue)'"
    }

    /// Each repository's last audit: its newest succeeded job that is not a pull request's.
    public func lastAuditedJobs(org: String) throws -> [Int: Int] {
        var jobs: [Int: Int] = [:]
        for row in try connection.query("""
            SELECT p.id AS repository_id, j.id FROM repositories p
            CROSS JOIN LATERAL (SELECT id FROM jobs WHERE repository_id = p.id AND state = \(JobState.succeeded.sql)
                                AND kind <> '\(JobKind.pr.rawValue)' ORDER BY created_at DESC, id DESC LIMIT 1) j
            WHERE p.org = $1
            """, [.text(org)], purpose: "find each repository's last audit in \(org)") {
            if let repository = row.int("repository_id"), let job = row.int("id") { jobs[repository] = job }
        }
        return jobs
    }

    /// The commit each of `repositoryIDs` was audited at in run `runID` (its last job there).
    public func commits(runID: Int, repositoryIDs: [Int]) throws -> [Int: String] {
        guard !repositoryIDs.isEmpty else { return [:] }
        var commits: [Int: String] = [:]
        for row in try connection.query("""
            SELECT DISTINCT ON (repository_id) repository_id, commit_sha FROM job_summaries
            WHERE run_id = $1 AND repository_id = ANY($2::bigint[]) AND commit_sha IS NOT NULL
            ORDER BY repository_id, job_id DESC
            """, [.int(runID), .intArray(repositoryIDs)], purpose: "read the commits audited in run \(runID)") {
            if let id = row.int("repository_id"), let sha = row.string("commit_sha") { commits[id] = sha }
        }
        return commits
    }

    public func openOwned(byTeam teamID: Int) throws -> [OwnedOpen] {
        try connection.query("""
            SELECT p.id, p.name, CASE WHEN p.team_id IS DISTINCT FROM $1 THEN t.name END AS other_team, sum(o.open_count) AS open,
                   coalesce(sum(o.open_count) FILTER (WHERE \(Self.violatesRequirement("o"))), 0) AS requirements
            FROM repository_open_counts o JOIN repositories p ON p.id = o.repository_id AND p.active
            LEFT JOIN teams t ON t.id = p.team_id
            WHERE o.team_id = $1
            GROUP BY p.id, p.name, p.team_id, t.name ORDER BY requirements DESC, open DESC, p.name
            """, [.int(teamID)], purpose: "list where team \(teamID)'s open findings are").map { row in
            OwnedOpen(repositoryID: row.int("id") ?? 0, repository: row.string("name") ?? "", otherTeam: row.string("other_team"),
                      open: row.int("open") ?? 0, requirements: row.int("requirements") ?? 0)
        }
    }

    public func repositories(org: String, teamID: Int? = nil) throws -> [Repository] {
        let rows = try connection.query("""
            SELECT p.id, p.name, p.team_id, t.name AS team, t.slug AS team_slug, p.last_run_id, p.active,
                   p.open_findings AS open, p.open_requirements AS requirements, p.provider, p.archive_url,
                   array_to_string(p.platforms, ',') AS platforms
            FROM repositories p LEFT JOIN teams t ON t.id = p.team_id
            WHERE p.org = $1 AND ($2::bigint IS NULL OR p.team_id = $2)
            ORDER BY p.name
            """, [.text(org), .optional(teamID)], purpose: "list the repositories of \(org)")
        return rows.map { row in
            Repository(id: row.int("id") ?? 0, name: row.string("name") ?? "", teamID: row.int("team_id"), teamName: row.string("team"),
                       teamSlug: row.string("team_slug"), open: row.int("open") ?? 0, openRequirements: row.int("requirements") ?? 0,
                       lastRunID: row.int("last_run_id"), active: row.bool("active") ?? true,
                       provider: row.string("provider") ?? "url", archiveURL: row.string("archive_url"),
                       platforms: row.string("platforms").map { PlatformSet($0.split(separator: ",").compactMap { Platform(rawValue: String($0)) }) })
        }
    }

    // MARK: Findings

    static let findingColumns = """
        f.id, f.repository_id, p.name AS repository, f.team_id, f.rule_id, f.kind, f.severity, f.path, f.line, f.column_number,
        f.message, f.snippet, f.source_line, f.first_seen_run, f.fixed_in_run, f.certainty, f.correction
        """

    func findings(_ rows: PostgresRows) -> [Finding] {
        rows.map { row in
            Finding(id: row.int("id") ?? 0, repositoryID: row.int("repository_id") ?? 0, repository: row.string("repository") ?? "",
                    teamID: row.int("team_id"), ruleID: row.string("rule_id") ?? "",
                    kind: row.string("kind").flatMap(RuleKind.init(rawValue:)) ?? .recommendation,
                    severity: row.string("severity").flatMap(Severity.init(rawValue:)) ?? .note, path: row.string("path") ?? "", line: row.int("line") ?? 0,
                    column: row.int("column_number") ?? 0, message: row.string("message") ?? "", snippet: row.string("snippet") ?? "",
                    sourceLine: row.string("source_line") ?? "", firstSeenRun: row.int("first_seen_run") ?? 0,
                    fixedInRun: row.int("fixed_in_run"),
                    certainty: row.string("certainty").flatMap(Certainty.init(rawValue:)) ?? .violation,
                    correction: row.string("correction").flatMap(Correction.init(storedJSON:)))
        }
    }

    /// A team's findings new in run `runID` (a baseline, recorded by a first audit, is not new),
    /// or fixed in it.
    /// A run's new (not baseline) or fixed findings of a team, or of every team (`teamID` nil:
    /// the run's export).
    public func findings(teamID: Int?, runID: Int, fixed: Bool) throws -> [Finding] {
        findings(try connection.query("""
            SELECT \(Self.findingColumns) FROM findings f JOIN repositories p ON p.id = f.repository_id
            WHERE ($1::bigint IS NULL OR f.team_id = $1) AND \(fixed ? "f.fixed_in_run = $2" : "f.first_seen_run = $2 AND NOT f.baseline")
            ORDER BY p.name, f.path, f.line, f.rule_id
            """, [.optional(teamID), .int(runID)],
            purpose: "list the \(fixed ? "fixed" : "new") findings of \(teamID.map { "team \($0)" } ?? "every team") in run \(runID)"))
    }

    /// A team's open findings wherever they are (its repositories, and files CODEOWNERS gives
    /// it in others'), by repository and path, each with the commit its repository's latest
    /// audit read (for links to its line).
    public func openFindings(teamID: Int) throws -> [(finding: Finding, commit: String?)] {
        // The commit per finding is one index probe of job_summaries: measured on the
        // 10,000-repository simulation (22,349 findings of a team), as fast as looking it up
        // once per repository in a CTE (120-380 ms either way), and simpler.
        let rows = try connection.query("""
            SELECT \(Self.findingColumns),
                   (SELECT s.commit_sha FROM job_summaries s WHERE s.repository_id = p.id AND s.run_id = p.last_run_id
                    ORDER BY s.job_id DESC LIMIT 1) AS commit_sha
            FROM findings f JOIN repositories p ON p.id = f.repository_id AND p.active
            WHERE f.team_id = $1 AND f.fixed_in_run IS NULL
            ORDER BY p.name, f.path, f.line, f.rule_id
            """, [.int(teamID)], purpose: "list the open findings of team \(teamID)")
        return Array(zip(findings(rows), rows.map { $0.string("commit_sha") }))
    }

    public func openFindings(repositoryID: Int) throws -> [Finding] {
        findings(try connection.query("""
            SELECT \(Self.findingColumns) FROM findings f JOIN repositories p ON p.id = f.repository_id
            WHERE f.repository_id = $1 AND f.fixed_in_run IS NULL
            ORDER BY f.path, f.rule_id, f.line
            """, [.int(repositoryID)], purpose: "list the open findings of repository \(repositoryID)"))
    }

    /// Where each rule's open findings are: per team, and the repositories with most (up to
    /// `top` per rule), with how many repositories hold any.
    public struct RuleSpread: Sendable, Equatable {
        public var teams: [NamedCount] = []
        public var repositories: [NamedCount] = []
        public var repositoryCount = 0
        public init() {}
    }

    public func ruleSpread(org: String, top: Int = 20) throws -> [String: RuleSpread] {
        var spread: [String: RuleSpread] = [:]
        for row in try connection.query("""
            SELECT o.rule_id, o.team_id, t.name, sum(o.open_count) AS n
            FROM repository_open_counts o JOIN repositories p ON p.id = o.repository_id AND p.active AND p.org = $1
            LEFT JOIN teams t ON t.id = o.team_id
            GROUP BY o.rule_id, o.team_id, t.name ORDER BY o.rule_id, n DESC, t.name
            """, [.text(org)], purpose: "count each rule's open findings by team") {
            spread[row.string("rule_id") ?? "", default: RuleSpread()].teams
                .append(.init(id: row.int("team_id"), name: row.string("name") ?? "", count: row.int("n") ?? 0))
        }
        for row in try connection.query("""
            SELECT rule_id, repository_id, name, n, repositories FROM (
                SELECT o.rule_id, o.repository_id, p.name, sum(o.open_count) AS n,
                       row_number() OVER (PARTITION BY o.rule_id ORDER BY sum(o.open_count) DESC, p.name) AS rank,
                       count(*) OVER (PARTITION BY o.rule_id) AS repositories
                FROM repository_open_counts o JOIN repositories p ON p.id = o.repository_id AND p.active AND p.org = $1
                GROUP BY o.rule_id, o.repository_id, p.name) ranked
            WHERE rank <= $2 ORDER BY rule_id, rank
            """, [.text(org), .int(top)], purpose: "list each rule's repositories with most open findings") {
            let rule = row.string("rule_id") ?? ""
            spread[rule, default: RuleSpread()].repositories
                .append(.init(id: row.int("repository_id"), name: row.string("name") ?? "", count: row.int("n") ?? 0))
            spread[rule]?.repositoryCount = row.int("repositories") ?? 0
        }
        return spread
    }

    /// Each rule's open findings per run over the last `nights` runs, oldest first.
    public func ruleTrends(org: String, nights: Int = 90) throws -> [String: [Night]] {
        var trends: [String: [Night]] = [:]
        for row in try connection.query("""
            SELECT c.rule_id, r.id, r.run_date::text AS date, r.kind, c.severity, sum(c.open_count) AS open,
                   sum(c.new_count) AS new, sum(c.fixed_count) AS fixed
            FROM (SELECT id, run_date, kind FROM runs WHERE org = $1 ORDER BY id DESC LIMIT $2) r
            JOIN run_rule_counts c ON c.run_id = r.id
            GROUP BY c.rule_id, r.id, r.run_date, r.kind, c.severity ORDER BY c.rule_id, r.id
            """, [.text(org), .int(nights)], purpose: "read each rule's trend") {
            let rule = row.string("rule_id") ?? "", run = row.int("id") ?? 0
            if trends[rule]?.last?.runID != run {
                trends[rule, default: []].append(Night(runID: run, date: row.string("date") ?? "",
                                                       kind: row.string("kind").flatMap(RunKind.init(rawValue:)) ?? .nightly,
                                                       openBySeverity: [:], new: 0, fixed: 0))
            }
            let last = (trends[rule]?.count ?? 1) - 1
            trends[rule]?[last].openBySeverity[row.string("severity") ?? "", default: 0] += row.int("open") ?? 0
            trends[rule]?[last].new += row.int("new") ?? 0
            trends[rule]?[last].fixed += row.int("fixed") ?? 0
        }
        return trends
    }

    /// Open findings per rule, for the organisation, a team, or a repository.
    public func openByRule(org: String, teamID: Int? = nil, repositoryID: Int? = nil) throws -> [(rule: String, count: Int)] {
        try connection.query("""
            SELECT o.rule_id, sum(o.open_count) AS n FROM repository_open_counts o JOIN repositories p ON p.id = o.repository_id AND p.active
            WHERE p.org = $1 AND ($2::bigint IS NULL OR o.team_id = $2) AND ($3::bigint IS NULL OR o.repository_id = $3)
            GROUP BY o.rule_id ORDER BY n DESC, o.rule_id
            """, [.text(org), .optional(teamID), .optional(repositoryID)], purpose: "count open findings by rule")
            .map { ($0.string("rule_id") ?? "", $0.int("n") ?? 0) }
    }

    /// What blocks a label in one repository: requirement-level violations of its rules (review
    /// findings are reported at note severity, recommendations are advice); `other` counts the
    /// rest of its rules' open findings, which a person checks but which block nothing.
    public struct LabelCounts: Sendable, Equatable {
        public var blocking = 0
        public var other = 0
        public init(blocking: Int = 0, other: Int = 0) { self.blocking = blocking; self.other = other }
    }

    /// Open findings per active repository of a team (`teamID` nil: of no team) and group of
    /// rules (the readiness page's labels), counted in the database: repository id -> group
    /// index -> counts, only where not zero. `snippetConditions` narrows a group's rule to the
    /// findings whose snippet matches a POSIX regular expression (group index -> rule ->
    /// pattern): those are counted from the findings, the rest from the roll-ups.
    public func openByRepository(org: String, teamID: Int?, ruleGroups: [[String]],
                                 snippetConditions: [Int: [String: String]] = [:]) throws -> [Int: [Int: LabelCounts]] {
        let pairs = ruleGroups.enumerated().flatMap { group in
            group.element.filter { snippetConditions[group.offset]?[$0] == nil }.map { (rule: $0, group: group.offset) }
        }
        let conditioned = snippetConditions.sorted { $0.key < $1.key }.flatMap { group, rules in
            rules.sorted { $0.key < $1.key }.map { (rule: $0.key, group: group, pattern: $0.value) }
        }
        var counts: [Int: [Int: LabelCounts]] = [:]
        func add(_ rows: PostgresRows) {
            for row in rows {
                guard let repository = row.int("repository_id"), let group = row.int("rule_group") else { continue }
                var current = counts[repository, default: [:]][group] ?? LabelCounts()
                current.blocking += row.int("blocking") ?? 0
                current.other += row.int("other") ?? 0
                counts[repository, default: [:]][group] = current
            }
        }
        add(try connection.query("""
            SELECT o.repository_id, g.rule_group,
                   coalesce(sum(o.open_count) FILTER (WHERE \(Self.violatesRequirement("o"))), 0) AS blocking,
                   coalesce(sum(o.open_count) FILTER (WHERE NOT (\(Self.violatesRequirement("o")))), 0) AS other
            FROM repository_open_counts o JOIN repositories p ON p.id = o.repository_id AND p.active
            JOIN unnest($2::text[], $3::int[]) AS g (rule_id, rule_group) ON g.rule_id = o.rule_id
            WHERE p.org = $1 AND p.team_id IS NOT DISTINCT FROM $4 GROUP BY o.repository_id, g.rule_group
            """, [.text(org), .textArray(pairs.map(\.rule)), .intArray(pairs.map(\.group)), .optional(teamID)],
            purpose: "count open findings by repository and label"))
        if !conditioned.isEmpty {
            add(try connection.query("""
                SELECT f.repository_id, g.rule_group,
                       count(*) FILTER (WHERE \(Self.violatesRequirement("f"))) AS blocking,
                       count(*) FILTER (WHERE NOT (\(Self.violatesRequirement("f")))) AS other
                FROM repositories p JOIN findings f ON f.repository_id = p.id AND f.fixed_in_run IS NULL
                JOIN unnest($2::text[], $3::int[], $4::text[]) AS g (rule_id, rule_group, pattern) ON g.rule_id = f.rule_id
                WHERE p.active AND p.org = $1 AND p.team_id IS NOT DISTINCT FROM $5 AND f.snippet ~ g.pattern
                GROUP BY f.repository_id, g.rule_group
                """, [.text(org), .textArray(conditioned.map(\.rule)), .intArray(conditioned.map(\.group)),
                      .textArray(conditioned.map(\.pattern)), .optional(teamID)],
                purpose: "count open findings by repository and label, by their snippets"))
        }
        return counts
    }

    // MARK: Jobs

    /// A run's jobs per team of their repositories (nil: of no team).
    public struct RunTeamJobs: Sendable, Equatable {
        public var jobs = 0
        public var succeeded = 0
        public var open = 0
        public var new = 0
        public var fixed = 0
        public init() {}
    }

    public func runJobsByTeam(runID: Int) throws -> [Int?: RunTeamJobs] {
        var byTeam: [Int?: RunTeamJobs] = [:]
        // A job that succeeded wrote a summary in its completing transaction: the summaries count
        // the succeeded jobs, and only the few others are read from `jobs` (reading every job of a
        // 10,000-job run as well took 95 ms).
        for row in try connection.query("""
            SELECT p.team_id, count(*) AS succeeded, sum(s.findings_open) AS open, sum(s.findings_new) AS new,
                   sum(s.findings_fixed) AS fixed
            FROM job_summaries s JOIN repositories p ON p.id = s.repository_id WHERE s.run_id = $1 GROUP BY p.team_id
            """, [.int(runID)], purpose: "sum the findings of run \(runID) by team") {
            var jobs = RunTeamJobs()
            jobs.succeeded = row.int("succeeded") ?? 0
            jobs.jobs = jobs.succeeded
            jobs.open = row.int("open") ?? 0
            jobs.new = row.int("new") ?? 0
            jobs.fixed = row.int("fixed") ?? 0
            byTeam[row.int("team_id")] = jobs
        }
        for row in try connection.query("""
            SELECT p.team_id, count(*) AS jobs FROM jobs j JOIN repositories p ON p.id = j.repository_id
            WHERE j.run_id = $1 AND j.state <> \(JobState.succeeded.sql) GROUP BY p.team_id
            """, [.int(runID)], purpose: "count the jobs of run \(runID) that did not succeed, by team") {
            byTeam[row.int("team_id"), default: RunTeamJobs()].jobs += row.int("jobs") ?? 0
        }
        return byTeam
    }

    /// Jobs, newest first, of one run, one repository, or one id; `withoutRun` lists jobs that
    /// belong to no run (pull requests).
    /// `team`: only jobs of repositories of that team (`.some(nil)`: of no team).
    public func jobs(runID: Int? = nil, repositoryID: Int? = nil, jobID: Int? = nil, withoutRun: Bool = false,
                     states: [JobState]? = nil, team: Int?? = nil, limit: Int = 100_000) throws -> [Job] {
        let rows = try connection.query("""
            SELECT j.id, j.run_id, j.repository_id, p.name AS repository, j.kind, j.state, j.attempt, j.max_attempts, j.commit_ref,
                   coalesce(s.commit_sha, j.commit_sha) AS commit_sha, j.last_error, j.errors::text AS errors,
                   to_char(j.created_at AT TIME ZONE 'UTC', '\(Self.timestamp)') AS created,
                   to_char(j.started_at AT TIME ZONE 'UTC', '\(Self.timestamp)') AS started,
                   to_char(j.finished_at AT TIME ZONE 'UTC', '\(Self.timestamp)') AS finished,
                   s.files_scanned, s.files_parsed, s.cache_hits, s.findings_open, s.findings_new, s.findings_fixed, s.suppressed,
                   s.fetch_ms, s.scan_ms, s.write_ms, s.notes::text AS notes, s.config::text AS config
            FROM jobs j JOIN repositories p ON p.id = j.repository_id LEFT JOIN job_summaries s ON s.job_id = j.id
            WHERE ($1::bigint IS NULL OR j.run_id = $1) AND ($2::bigint IS NULL OR j.repository_id = $2) AND ($3::bigint IS NULL OR j.id = $3)
              AND (NOT $5 OR j.run_id IS NULL) AND ($6::text[] IS NULL OR j.state = ANY($6))
              AND (NOT $7 OR p.team_id IS NOT DISTINCT FROM $8)
            ORDER BY j.id DESC LIMIT $4
            """, [.optional(runID), .optional(repositoryID), .optional(jobID), .int(limit), .bool(withoutRun),
                  states.map { .textArray($0.map(\.rawValue)) } ?? .null, .bool(team != nil), .optional(team ?? nil)], purpose: "list jobs")
        return rows.map { row in
            Job(id: row.int("id") ?? 0, runID: row.int("run_id"), repositoryID: row.int("repository_id") ?? 0,
                repository: row.string("repository") ?? "", kind: row.string("kind").flatMap(JobKind.init(rawValue:)) ?? .manual,
                state: row.string("state").flatMap(JobState.init(rawValue:)) ?? .queued,
                attempt: row.int("attempt") ?? 0, maxAttempts: row.int("max_attempts") ?? 0, commitRef: row.string("commit_ref") ?? "",
                commitSHA: row.string("commit_sha"), lastError: row.string("last_error"), errorsJSON: row.string("errors") ?? "[]",
                createdAt: row.string("created") ?? "", startedAt: row.string("started"), finishedAt: row.string("finished"),
                filesScanned: row.int("files_scanned"), filesParsed: row.int("files_parsed"), cacheHits: row.int("cache_hits"),
                open: row.int("findings_open"), new: row.int("findings_new"), fixed: row.int("findings_fixed"),
                suppressed: row.int("suppressed"), fetchMilliseconds: row.int("fetch_ms"), scanMilliseconds: row.int("scan_ms"),
                writeMilliseconds: row.int("write_ms"), notesJSON: row.string("notes"), configJSON: row.string("config"))
        }
    }

    /// The teams of what these runs found new or fixed in these repositories, of what is open
    /// in them, and the repositories' own teams: whose pages a finished job changes.
    public func teamsTouched(runs: Set<Int>, repositories: Set<Int>) throws -> Set<Int> {
        Set(try connection.query("""
            SELECT team_id FROM findings WHERE repository_id = ANY($2) AND (first_seen_run = ANY($1) OR fixed_in_run = ANY($1))
            UNION SELECT team_id FROM repository_open_counts WHERE repository_id = ANY($2)
            UNION SELECT team_id FROM repositories WHERE id = ANY($2)
            """, [.intArray(runs.sorted()), .intArray(repositories.sorted())],
            purpose: "find the teams the jobs touched").compactMap { $0.int("team_id") })
    }
}
