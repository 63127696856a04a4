import AuditModel
import AuditStore
import Dashboard
import Foundation
import HistorySimulation
import PostgresClient
import SwiftChecks

/// The scale simulation's measurements, against a database that deploy/sim/run.sh filled
/// (DATABASE_URL names it): the dashboard's queries, and a full and an incremental render.
enum ScaleBench {
    struct Subjects {
        var org: String
        var latestRun: Int
        var middleRun: Int
        var team: Int
        var teamName: String
        var repository: Int
    }

    /// The busiest subjects: the team with most repositories, the repository with most open
    /// findings, the latest run and one from the middle of the history.
    static func subjects(_ connection: PostgresConnection) throws -> Subjects {
        let queries = DashboardQueries(connection: connection)
        guard let org = try queries.orgs().first else { throw BenchFailure("the database has no organisation: run deploy/sim/run.sh") }
        let simulation = SimulationQueries(connection: connection)
        let runs = try simulation.runIDs(org: org)
        guard let latest = runs.last else { throw BenchFailure("no runs") }
        let team = try simulation.largestTeam(org: org)
        let repository = try simulation.repositoryWithMostOpenFindings()
        return Subjects(org: org, latestRun: latest, middleRun: runs[runs.count / 2], team: team?.id ?? 0,
                        teamName: team?.name ?? "", repository: repository ?? 0)
    }

    /// Every query a page of the dashboard makes, by page, with the subjects above.
    static func pageQueries(_ queries: DashboardQueries, _ s: Subjects) -> [(page: String, query: String, run: () throws -> Int)] {
        [
            ("overview", "runs (90)", { try queries.runs(org: s.org, limit: 90).count }),
            ("overview", "trend, organisation", { try queries.trend(org: s.org).count }),
            ("overview", "teams ranked", { try queries.teams(org: s.org, latestRun: s.latestRun).count }),
            ("overview", "open by rule, organisation", { try queries.openByRule(org: s.org).count }),
            ("overview", "failed jobs of the latest run", { try queries.jobs(runID: s.latestRun, states: [.dead, .failed]).count }),
            ("run page (older run)", "jobs that did not succeed", {
                try queries.jobs(runID: s.middleRun, states: JobState.allCases.filter { $0 != .succeeded }).count }),
            ("run page (older run)", "jobs by team", { try queries.runJobsByTeam(runID: s.middleRun).count }),
            ("run page of a team (older run)", "the team's jobs", { try queries.jobs(runID: s.middleRun, team: .some(s.team)).count }),
            ("team", "trend, team", { try queries.trend(org: s.org, teamID: s.team).count }),
            ("team", "new findings, latest run", { try queries.findings(teamID: s.team, runID: s.latestRun, fixed: false).count }),
            ("team", "fixed findings, latest run", { try queries.findings(teamID: s.team, runID: s.latestRun, fixed: true).count }),
            ("team", "open by rule, team", { try queries.openByRule(org: s.org, teamID: s.team).count }),
            ("team", "repositories of the team", { try queries.repositories(org: s.org, teamID: s.team).count }),
            ("team", "sparklines (30 runs)", { try queries.repositoryTrends(org: s.org, teamID: s.team).count }),
            ("regression report", "new findings, older run", { try queries.findings(teamID: s.team, runID: s.middleRun, fixed: false).count }),
            ("regression report", "fixed findings, older run", { try queries.findings(teamID: s.team, runID: s.middleRun, fixed: true).count }),
            ("repository", "open findings", { try queries.openFindings(repositoryID: s.repository).count }),
            ("repository", "last 30 jobs", { try queries.jobs(repositoryID: s.repository, limit: 30).count }),
            ("repository", "trend, repository", { try queries.trend(org: s.org, repositoryID: s.repository).count }),
            ("team readiness", "open by repository and label, team", {
                try queries.openByRepository(org: s.org, teamID: s.team, ruleGroups: NutritionLabel.allCases.map(\.rules)).count }),
            ("every page", "all repositories", { try queries.repositories(org: s.org).count }),
        ]
    }

    /// `--only dashboard-sql`: each page query, timed from the client (median of `rounds` after a
    /// warm-up: the sum of planning, execution and sending the rows). With `--explain`, each runs
    /// once more under auto_explain, which prints the executed plan with buffers to stderr: the
    /// exact statements the pages run, not copies of them.
    static func dashboardQueries(rounds: Int, explain: Bool) throws {
        let connection = try PostgresConnection(ConnectionSettings.fromEnvironment())
        let s = try subjects(connection)
        let queries = DashboardQueries(connection: connection)
        let simulation = SimulationQueries(connection: connection)
        let size = try simulation.size(org: s.org)
        print("""
            Dashboard queries on \(size.repositories) repositories x \(size.runs) runs \
            (\(size.findings) findings, \(size.open) open; database \(size.database)). \
            Team \(s.teamName) (id \(s.team)), repository id \(s.repository), runs \(s.latestRun) and \(s.middleRun).

            | page | query | rows | median (ms) | slowest (ms) |
            |---|---|---:|---:|---:|
            """)
        for (page, name, run) in pageQueries(queries, s) {
            var rows = try run()
            var times: [Double] = []
            for _ in 0..<rounds { times.append(try seconds { rows = try run() } * 1000) }
            times.sort()
            print("| \(page) | \(name) | \(rows) | \(String(format: "%.1f", times[times.count / 2])) | \(String(format: "%.1f", times.last ?? 0)) |")
        }
        guard explain else { return }
        try simulation.explainEveryStatement()
        for (page, name, run) in pageQueries(queries, s) {
            _ = connection.takeNotices()
            _ = try run()
            FileHandle.standardError.write(Data(("\n=== \(page): \(name)\n" + connection.takeNotices().joined()).utf8))
        }
    }

    /// `--only sim-render`: a full render of the simulated organisation into an empty folder and
    /// the same render again (nothing changed), unless `full` is false; then the live renderer's
    /// work while a night runs: the first job of a new night (every team page says what changed
    /// in the last run, so all of them are rendered), a batch of 100 jobs finishing together,
    /// and one more job (100 jobs, or all but two repositories in a smaller organisation).
    static func render(output: String?, full: Bool) throws {
        let connection = try PostgresConnection(ConnectionSettings.fromEnvironment())
        let s = try subjects(connection)
        let web = Migrations.defaultDirectory().replacingOccurrences(of: "/Migrations", with: "/Web")
        let site = try output.map { URL(fileURLWithPath: $0) } ?? temporaryDirectory("sim-site")
        let renderer = try SiteRenderer(connection: connection, org: s.org, output: site.path, webDirectory: web)
        var rows: [String] = []
        func row(_ name: String, _ summary: RenderSummary, _ time: Double) {
            rows.append("| \(name) | \(summary.pages) | \(summary.written) | \(String(format: "%.2f", time)) |")
        }
        if full {
            var summary = RenderSummary()
            let first = try seconds { summary = try renderer.renderAll() }
            row("full, empty folder", summary, first)
            let again = try seconds { summary = try renderer.renderAll() }
            row("full, nothing changed", summary, again)
        }

        // Tonight's run: each job re-reports its repository's open findings, 2% of them fixed
        // and as many new, through JobQueue and HistoryWriter.
        let simulation = SimulationQueries(connection: connection)
        let repositories = try simulation.activeRepositoryIDs(org: s.org, sample: 102)
        let run = try simulation.addNight(org: s.org, jobs: repositories.count)
        let queue = JobQueue(connection: connection)
        var random = SystemRandomNumberGenerator()
        // The whole night is queued first, as the coordinator queues it: the run finishes (and is
        // rolled up) with its last job, not with the first.
        for repository in repositories {
            _ = try queue.enqueue(JobRequest(runID: run, repositoryID: repository, kind: .nightly, commitRef: "main", archiveURL: "file:///sim"))
        }
        func audit(_: Int) throws -> Int {
            guard let job = try queue.claim(worker: "bench") else { throw BenchFailure("no job to claim") }
            let results = try auditAgain(repository: job.repositoryID, jobID: job.id, churn: 0.02, simulation, using: &random)
            _ = try queue.complete(job) {
                try HistoryWriter(connection: $0).write(JobResults(findings: results, filesScanned: 40, filesParsed: 1, cacheHits: 39), for: job)
            }
            return job.id
        }
        guard repositories.count >= 3 else { throw BenchFailure("the organisation needs at least 3 active repositories") }
        var summary = RenderSummary()
        let first = try audit(repositories[0])
        var time = try seconds { summary = try renderer.renderAfterJobs([first]) }
        row("the first job of a new night", summary, time)
        let batch = try repositories[1..<(repositories.count - 1)].map(audit)
        time = try seconds { summary = try renderer.renderAfterJobs(batch) }
        row("\(batch.count) jobs of the night, one batch", summary, time)
        let last = try audit(repositories[repositories.count - 1])
        time = try seconds { summary = try renderer.renderAfterJobs([last]) }
        row("one more job of the night", summary, time)
        print("""
            Dashboard render of the simulated organisation into \(site.path):

            | render | pages | written | time (s) |
            |---|---:|---:|---:|
            \(rows.joined(separator: "\n"))
            """)
    }

    /// A repository's open findings reported again, with `churn` of them fixed and as many new.
    static func auditAgain(repository: Int, jobID: Int, churn: Double, _ simulation: SimulationQueries,
                           using random: inout SystemRandomNumberGenerator) throws -> [JobResults.AttributedFinding] {
        var findings = try simulation.openFindings(repositoryID: repository)
        let fixes = Int((Double(findings.count) * churn + Double.random(in: 0..<1, using: &random)).rounded(.down))
        findings.shuffle(using: &random)
        var results = Array(findings.dropFirst(fixes))
        for index in 0..<fixes {
            var added = FixtureHistory.finding(FixtureHistory.rules[index % FixtureHistory.rules.count],
                                               file: "Sources/Night/View\(index).swift", line: 3 + index, code: "night")
            added.fingerprint = "night-\(jobID)-\(index)"
            results.append(.init(finding: added, teamID: findings.first?.teamID))
        }
        return results
    }

    /// `--only sim-night`: one more night of the simulated organisation through the real write
    /// path (JobQueue claim and complete, HistoryWriter, the run's roll-up when its last job
    /// completes): every repository re-reports its open findings, with `churn` of them fixed and
    /// as many new. Prints what each table grew by (after VACUUM, so dead rows do not count).
    static func night(churn: Double) throws {
        let connection = try PostgresConnection(ConnectionSettings.fromEnvironment())
        let s = try subjects(connection)
        let simulation = SimulationQueries(connection: connection)
        let sizes = simulation.tableSizes
        let before = try sizes()
        let repositories = try simulation.activeRepositoryIDs(org: s.org)
        let run = try simulation.addNight(org: s.org, jobs: repositories.count)
        let queue = JobQueue(connection: connection)
        try simulation.enqueueNight(runID: run, org: s.org)
        var random = SystemRandomNumberGenerator()
        var changed = 0, unchanged = 0
        let elapsed = try seconds {
            while let job = try queue.claim(worker: "sim-night") {
                let results = try auditAgain(repository: job.repositoryID, jobID: job.id, churn: churn, simulation, using: &random)
                let open = try simulation.openFindingCount(repositoryID: job.repositoryID)
                if results.count != open || results.contains(where: { $0.finding.fingerprint.hasPrefix("night-") }) { changed += 1 } else { unchanged += 1 }
                _ = try queue.complete(job) {
                    try HistoryWriter(connection: $0).write(JobResults(findings: results, filesScanned: 40, filesParsed: 1, cacheHits: 39), for: job)
                }
            }
        }
        let after = try sizes()
        let (newFindings, fixedFindings) = try simulation.newAndFixed(runID: run)
        print("""
            One more night of \(repositories.count) repositories through JobQueue and HistoryWriter in \(String(format: "%.1f", elapsed)) s \
            (\(changed) repositories changed, \(unchanged) unchanged; \(newFindings) new and \(fixedFindings) fixed findings):

            | table | rows added | bytes added |
            |---|---:|---:|
            """)
        var total = 0
        for (name, size) in after.sorted(by: { $0.key < $1.key }) {
            let grown = size.bytes - (before[name]?.bytes ?? 0)
            total += grown
            guard grown != 0 || size.rows != before[name]?.rows else { continue }
            print("| \(name) | \(size.rows - (before[name]?.rows ?? 0)) | \(grown) |")
        }
        print("| all tables | | \(total) |")
    }
}
