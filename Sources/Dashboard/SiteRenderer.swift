import AuditModel
import AuditStore
import Foundation
import PostgresClient
import SwiftChecks
import Synchronization

public enum RenderError: Error, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    case assetsNotFound(String)
    case noOrganisation

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .assetsNotFound(let path): "dashboard stylesheets not found in \(path) (set A11Y_AUDIT_WEB to the Web/ folder)"
        case .noOrganisation: "the database has no organisation yet: run `a11y-audit schedule` first"
        }
    }
}

public struct RenderSummary: Sendable, Equatable {
    public var written = 0
    public var unchanged = 0
    public var pages: Int { written + unchanged }
    public init() {}

    mutating func add(_ other: RenderSummary) {
        written += other.written
        unchanged += other.unchanged
    }
}

/// Renders the dashboard into a folder of static pages. Every page is written whole to a
/// temporary file and renamed into place, so a reader never sees half a page; a page whose
/// content did not change is not rewritten (its ETag and Last-Modified stay).
public final class SiteRenderer {
    let queries: DashboardQueries
    /// Where more connections come from, and how many threads render a whole site; nil or 1:
    /// one thread on `queries`' connection.
    let parallel: (settings: ConnectionSettings, workers: Int)?
    let org: String
    let output: String
    let webDirectory: String
    private(set) var summary = RenderSummary()
    /// Site paths of the repository pages, by repository id (stable, collision-free).
    private var repositoryPaths: [Int: String] = [:]
    private var runsCache: [DashboardQueries.Run]?
    /// How many of the newest runs have a page for every job. Older runs keep pages only for jobs
    /// that did not succeed, and each repository keeps one for its last audit: at 10,000
    /// repositories a page per job per night would add 10,000 pages every night (see
    /// docs/scaling.md) to say "succeeded" again.
    public static let jobPageRuns = 7
    private(set) var recentRunIDs = Set<Int>()
    /// Each repository's last audited job, which keeps its page whatever its run's age.
    private var lastAuditedJobIDs = Set<Int>()
    /// Each repository's last audited job, by repository (a whole render reads them up front, so
    /// every page links them whichever page is rendered first).
    private var lastAuditedByRepository: [Int: Int] = [:]
    /// The newest run when this renderer last rendered the team pages: every team page says what
    /// changed in the last run, so a new last run changes all of them.
    private var renderedLatestRun: Int??
    /// Per team, its active apps and how many of them each label has blocked, from the last
    /// render of its readiness page (the organisation's page sums them).
    var readinessByTeam: [Int: (apps: Int, blocked: [Int])] = [:]
    /// Team names by id, and each repository's forge (for line links), from the current render.
    var teamNames: [Int: String] = [:]
    var forges: [Int: ForgeLink.Forge] = [:]
    /// The catalog by id: `RuleCatalog.descriptions` builds every description on each access.
    let catalog = RuleCatalog.descriptions
    lazy var rules: [String: RuleDescription] = Dictionary(catalog.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    public static let stylesheets = ["dashboard.css"]
    /// Enhancements only: every page works without them.
    public static let scripts = ["filters.js"]

    public init(connection: PostgresConnection, org: String? = nil, output: String, webDirectory: String = SiteRenderer.defaultWebDirectory(),
                parallel: (settings: ConnectionSettings, workers: Int)? = nil) throws {
        queries = DashboardQueries(connection: connection)
        self.parallel = parallel
        guard let org = try org ?? queries.orgs().first else { throw RenderError.noOrganisation }
        self.org = org
        self.output = output
        self.webDirectory = webDirectory
    }

    /// A renderer on its own connection to `settings`, rendering whole sites on `workers` threads
    /// (each with a connection of its own).
    public convenience init(settings: ConnectionSettings, org: String? = nil, output: String,
                            webDirectory: String = SiteRenderer.defaultWebDirectory(),
                            workers: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        try self.init(connection: PostgresConnection(settings), org: org, output: output, webDirectory: webDirectory,
                      parallel: (settings, max(1, workers)))
    }

    /// `A11Y_AUDIT_WEB`, else a `Web` folder beside the executable or above it (a build tree),
    /// else the installed copy.
    public static func defaultWebDirectory(executable: String = CommandLine.arguments.first ?? "") -> String {
        if let override = ProcessInfo.processInfo.environment["A11Y_AUDIT_WEB"], !override.isEmpty { return override }
        var directory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent("Web")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("dashboard.css").path) { return candidate.path }
            directory = directory.deletingLastPathComponent()
        }
        return "/usr/share/a11y-audit/Web"
    }

    // MARK: Whole site and incremental

    /// Every page. Historical regression reports are rendered too (they are skipped when unchanged).
    @discardableResult
    public func renderAll() throws -> RenderSummary {
        summary = RenderSummary()
        runsCache = nil
        try copyAssets()
        let runs = try allRuns()
        let teams = try queries.teams(org: org, latestRun: runs.first?.id)
        teamNames = Dictionary(teams.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let repositories = try queries.repositories(org: org)
        assignRepositoryPaths(repositories)
        lastAuditedByRepository = try queries.lastAuditedJobs(org: org)
        lastAuditedJobIDs.formUnion(lastAuditedByRepository.values)
        try renderOverview(teams: teams, runs: runs)
        // The pages of teams, runs and repositories are independent of one another: the heavy
        // units first (teams with their reports, recent runs with a page per job).
        let units = teams.map { RenderUnit.team($0) } + runs.map { RenderUnit.run($0) } + repositories.map { RenderUnit.repository($0) }
        try render(units, runs: runs, teams: teams)
        renderedLatestRun = .some(runs.first?.id)
        for job in try queries.jobs(withoutRun: true) { try renderJob(job) }
        try renderRunsIndex(runs)
        try renderRules()
        try renderReadiness(repositories, teams: teams, changedTeams: nil)
        try renderPullRequests()
        return summary
    }

    /// A part of the site that renders alone.
    enum RenderUnit: Sendable {
        case team(DashboardQueries.Team)
        case run(DashboardQueries.Run)
        case repository(DashboardQueries.Repository)
    }

    private func render(_ unit: RenderUnit, runs: [DashboardQueries.Run], teams: [DashboardQueries.Team]) throws {
        switch unit {
        case .team(let team): try renderTeam(team, runs: runs, allNights: true)
        case .repository(let repository): try renderRepository(repository)
        case .run(let run):
            try renderRun(run, teams: teams)
            // Job pages a run at a time, so memory holds one night's jobs, not the whole history.
            let jobs = recentRunIDs.contains(run.id) ? try queries.jobs(runID: run.id)
                : try queries.jobs(runID: run.id, states: JobState.allCases.filter { $0 != .succeeded })
            for job in jobs { try renderJob(job) }
        }
    }

    /// What a worker's renderer needs of this one to render exactly the pages this one would.
    private struct Context: Sendable {
        var org, output, webDirectory: String
        var runs: [DashboardQueries.Run]
        var repositoryPaths: [Int: String]
        var forges: [Int: ForgeLink.Forge]
        var teamNames: [Int: String]
        var lastAuditedByRepository: [Int: Int]
        var lastAuditedJobIDs: Set<Int>
    }

    private func render(_ units: [RenderUnit], runs: [DashboardQueries.Run], teams: [DashboardQueries.Team]) throws {
        guard let parallel, parallel.workers > 1, units.count > 1 else {
            for unit in units { try render(unit, runs: runs, teams: teams) }
            return
        }
        let context = Context(org: org, output: output, webDirectory: webDirectory, runs: runs, repositoryPaths: repositoryPaths,
                              forges: forges, teamNames: teamNames, lastAuditedByRepository: lastAuditedByRepository,
                              lastAuditedJobIDs: lastAuditedJobIDs)
        let next = Atomic(0)
        let outcome = Mutex<(summary: RenderSummary, error: (any Error)?, kept: Set<Int>)>((RenderSummary(), nil, []))
        DispatchQueue.concurrentPerform(iterations: min(parallel.workers, units.count)) { _ in
            do {
                let worker = try SiteRenderer(connection: PostgresConnection(parallel.settings), org: context.org, output: context.output,
                                              webDirectory: context.webDirectory)
                worker.adopt(context)
                defer { outcome.withLock { $0.summary.add(worker.summary); $0.kept.formUnion(worker.lastAuditedJobIDs) } }
                while outcome.withLock({ $0.error == nil }) {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < units.count else { break }
                    try worker.render(units[index], runs: runs, teams: teams)
                }
            } catch {
                outcome.withLock { if $0.error == nil { $0.error = error } }
            }
        }
        let result = outcome.withLock { $0 }
        summary.add(result.summary)
        lastAuditedJobIDs.formUnion(result.kept)
        if let error = result.error { throw error }
    }

    private func adopt(_ context: Context) {
        runsCache = context.runs
        recentRunIDs = Set(context.runs.prefix(Self.jobPageRuns).map(\.id))
        repositoryPaths = context.repositoryPaths
        forges = context.forges
        teamNames = context.teamNames
        lastAuditedByRepository = context.lastAuditedByRepository
        lastAuditedJobIDs = context.lastAuditedJobIDs
    }

    /// After a job finished: its job and run pages, its repository, its teams' pages and that
    /// night's regression reports, the overview, rules and readiness. Other repositories' and
    /// older nights' pages are left alone.
    @discardableResult
    public func renderAfterJob(_ jobID: Int) throws -> RenderSummary { try renderAfterJobs([jobID]) }

    /// After several jobs finished: each job's own pages, and the pages they share (the overview,
    /// rules, readiness, each affected team and run) once for all of them. At 10,000 repositories
    /// the shared pages cost seconds (docs/scaling.md), so a live site keeps up with a night's
    /// jobs only by rendering them in batches.
    @discardableResult
    public func renderAfterJobs(_ jobIDs: [Int]) throws -> RenderSummary {
        summary = RenderSummary()
        runsCache = nil
        let jobs = try jobIDs.compactMap { try queries.jobs(jobID: $0).first }
        guard !jobs.isEmpty else { return summary }
        try copyAssets()
        let runs = try allRuns()
        let teams = try queries.teams(org: org, latestRun: runs.first?.id)
        teamNames = Dictionary(teams.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let repositories = try queries.repositories(org: org)
        assignRepositoryPaths(repositories)
        for job in jobs {
            try renderJob(job)
            if job.kind == .pr { try renderPullRequests(onlyJob: job.id) }
        }
        let changedRuns = Set(jobs.compactMap(\.runID))
        for run in runs where changedRuns.contains(run.id) { try renderRun(run, teams: teams) }
        try renderRunsIndex(runs)
        let changedRepositories = Set(jobs.map(\.repositoryID))
        for repository in repositories where changedRepositories.contains(repository.id) { try renderRepository(repository) }
        // The teams of what the jobs found new or fixed, of what is open, and the repositories' own.
        let affected = try queries.teamsTouched(runs: changedRuns, repositories: changedRepositories)
        let newLastRun = renderedLatestRun != .some(runs.first?.id)
        for team in teams where affected.contains(team.id) || newLastRun {
            try renderTeam(team, runs: runs, allNights: false, nights: changedRuns)
        }
        renderedLatestRun = .some(runs.first?.id)
        try renderOverview(teams: teams, runs: runs)
        try renderRules()
        try renderReadiness(repositories, teams: teams, changedTeams: Set(repositories.filter { changedRepositories.contains($0.id) }.compactMap(\.teamID)))
        return summary
    }

    private func allRuns() throws -> [DashboardQueries.Run] {
        if let runsCache { return runsCache }
        let runs = try queries.runs(org: org, limit: 100_000)
        runsCache = runs
        recentRunIDs = Set(runs.prefix(Self.jobPageRuns).map(\.id))
        return runs
    }

    /// Whether `job` has a page: see `jobPageRuns`.
    func hasJobPage(_ job: DashboardQueries.Job) -> Bool { hasPageByRun(job) || lastAuditedJobIDs.contains(job.id) }

    /// Whether its run's pages give `job` a page (a run's loop renders those).
    private func hasPageByRun(_ job: DashboardQueries.Job) -> Bool {
        guard let run = job.runID else { return true }
        return job.state != .succeeded || recentRunIDs.contains(run)
    }

    /// A repository's last audited job, which its page links, or nil when it has none.
    func lastAudited(_ repository: DashboardQueries.Repository, among jobs: [DashboardQueries.Job]) throws -> DashboardQueries.Job? {
        let recent = jobs.first { $0.state == .succeeded && $0.kind != .pr }
        guard recent == nil, let id = lastAuditedByRepository[repository.id] else { return recent }
        return try queries.jobs(jobID: id).first
    }

    /// A repository page links its last audited job: that job keeps a page, rendered here when
    /// its run's pages do not.
    func keepPage(ofLastAudited job: DashboardQueries.Job) throws {
        lastAuditedJobIDs.insert(job.id)
        guard !hasPageByRun(job) else { return }
        try renderJob(job)
    }

    private func assignRepositoryPaths(_ repositories: [DashboardQueries.Repository]) {
        for repository in repositories {
            forges[repository.id] = ForgeLink.forge(provider: repository.provider, name: repository.name, archiveURL: repository.archiveURL)
        }
        var used = Set<String>()
        for repository in repositories.sorted(by: { $0.id < $1.id }) {
            let segments = repository.name.split(separator: "/").map { HTML.segment(String($0)) }
            var path = "repos/" + segments.joined(separator: "/") + ".html"
            if used.contains(path) { path = "repos/" + segments.joined(separator: "/") + "-\(repository.id).html" }
            used.insert(path)
            repositoryPaths[repository.id] = path
        }
    }

    func repositoryPath(_ id: Int) -> String { repositoryPaths[id] ?? "repos/\(id).html" }
    static func teamPath(_ slug: String) -> String { "teams/\(HTML.segment(slug))/index.html" }
    static func teamReadinessPath(_ slug: String) -> String { "teams/\(HTML.segment(slug))/readiness.html" }
    /// A run's regression report: keyed by run, so two runs of one day keep a report each.
    static func regressionPath(_ slug: String, runID: Int) -> String { "teams/\(HTML.segment(slug))/regressions/run-\(runID).html" }
    static func runPath(_ id: Int) -> String { "runs/\(id).html" }
    /// A run's jobs of one team (nil: of no team).
    static func runTeamPath(_ id: Int, team slug: String?) -> String {
        slug.map { "runs/\(id)/teams/\(HTML.segment($0)).html" } ?? "runs/\(id)/unassigned.html"
    }
    static func jobPath(_ id: Int) -> String { "jobs/\(id).html" }
    static func rulePath(_ id: String) -> String { "rules/\(HTML.segment(id)).html" }

    // MARK: Writing

    private func copyAssets() throws {
        for name in Self.stylesheets + Self.scripts {
            guard let data = FileManager.default.contents(atPath: webDirectory + "/" + name) else {
                throw RenderError.assetsNotFound(webDirectory)
            }
            try write("assets/\(name)", data)
        }
    }

    func write(_ path: String, _ html: String) throws { try write(path, Data(html.utf8)) }

    private func write(_ path: String, _ data: Data) throws {
        let target = output + "/" + path
        if let existing = FileManager.default.contents(atPath: target), existing == data {
            summary.unchanged += 1
            return
        }
        let folder = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw RenderError.cannotWrite(path: folder, reason: "\(error)")
        }
        let temporary = folder + "/.\((target as NSString).lastPathComponent).\(UUID().uuidString).tmp"
        // Plain POSIX writes: FileManager's createFile synced every file to disk (a quarter of a
        // whole render), which a site rendered again from the database does not need; the rename
        // still makes each page appear whole.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw RenderError.cannotWrite(path: temporary, reason: String(cString: strerror(errno))) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 { if errno == EINTR { continue }; failure = errno; return }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw RenderError.cannotWrite(path: temporary, reason: String(cString: strerror(failure)))
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw RenderError.cannotWrite(path: target, reason: reason)
        }
        summary.written += 1
    }

    // MARK: Layout

    /// `heading`: the page's h1 where it is shorter than its title (a filtered list's page is
    /// titled with its filter, which its own heading says).
    func page(_ path: String, title: String, heading: String? = nil, breadcrumbs: [(String, String)] = [], _ body: String) -> String {
        let link = { (target: String) in HTML.escape(HTML.href(from: path, to: target)) }
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTML.escape(title)) · \(HTML.escape(org)) accessibility audit</title>

            """
        for sheet in Self.stylesheets { html += "<link rel=\"stylesheet\" href=\"\(link("assets/" + sheet))\">\n" }
        for script in Self.scripts { html += "<script src=\"\(link("assets/" + script))\" defer></script>\n" }
        html += """
            </head>
            <body>
            <a class="skip-link" href="#main">Skip to main content</a>
            <header class="site-header">
            <p class="site-name"><a href="\(link("index.html"))">\(HTML.escape(org)) accessibility audit</a></p>
            <nav aria-label="Site">
            <ul>
            <li><a href="\(link("index.html"))"\(path == "index.html" ? " aria-current=\"page\"" : "")>Overview</a></li>
            <li><a href="\(link("runs/index.html"))"\(path == "runs/index.html" ? " aria-current=\"page\"" : "")>Runs</a></li>
            <li><a href="\(link("rules/index.html"))"\(path == "rules/index.html" ? " aria-current=\"page\"" : "")>Rules</a></li>
            <li><a href="\(link("pulls/index.html"))"\(path == "pulls/index.html" ? " aria-current=\"page\"" : "")>Pull requests</a></li>
            <li><a href="\(link("readiness.html"))"\(path == "readiness.html" ? " aria-current=\"page\"" : "")>Nutrition Label readiness</a></li>
            </ul>
            </nav>
            </header>

            """
        if !breadcrumbs.isEmpty {
            html += "<nav class=\"breadcrumbs\" aria-label=\"Breadcrumb\"><ol>"
            for (label, target) in breadcrumbs { html += "<li><a href=\"\(link(target))\">\(HTML.escape(label))</a></li>" }
            html += "<li><span aria-current=\"page\">\(HTML.breakable(title))</span></li></ol></nav>\n"
        }
        html += "<main id=\"main\">\n<h1>\(HTML.breakable(heading ?? title))</h1>\n\(body)\n</main>\n"
        html += "<footer class=\"site-footer\"><p>Static evidence from source, asset catalogs and Interface Builder files; "
        html += "what needs a device is listed on each rule page. Rendered by a11y-audit.</p></footer>\n</body>\n</html>\n"
        return html
    }

    /// `compact`: smaller type and padding, for tables of a dozen narrow columns.
    func table(caption: String, headers: [(String, Bool)], rows: [[String]], empty: String, compact: Bool = false) -> String {
        guard !rows.isEmpty else { return "<p>\(HTML.escape(empty))</p>" }
        // Stacked below 40em (the stylesheet turns rows into labelled blocks); explicit roles keep
        // table semantics when CSS changes the display.
        // A table of many columns stacks on narrower screens too (below 64em): laid out as a grid
        // at 768 px its columns were wider than the window.
        let stacking = (headers.count > 5 ? "stack stack-wide" : "stack") + (compact ? " compact" : "")
        var html = "<div class=\"table-wrap\"><table class=\"\(stacking)\" role=\"table\"><caption>\(HTML.breakable(caption))</caption><thead><tr role=\"row\">"
        for (header, numeric) in headers {
            html += "<th scope=\"col\" role=\"columnheader\"\(numeric ? " class=\"number\"" : "")>\(HTML.escape(header))</th>"
        }
        html += "</tr></thead><tbody>"
        for row in rows {
            html += "<tr role=\"row\">"
            for (index, cell) in row.enumerated() {
                let numeric = index < headers.count && headers[index].1
                let label = index < headers.count ? HTML.escape(headers[index].0) : ""
                html += index == 0 ? "<th scope=\"row\" role=\"rowheader\">\(cell)</th>"
                    : "<td role=\"cell\" data-label=\"\(label)\"\(numeric ? " class=\"number\"" : "")>\(cell)</td>"
            }
            html += "</tr>"
        }
        return html + "</tbody></table></div>"
    }

    func anchor(_ from: String, _ to: String, _ text: String) -> String {
        "<a href=\"\(HTML.escape(HTML.href(from: from, to: to)))\">\(HTML.breakable(text))</a>"
    }

    /// A link whose text is a repository's name, breakable between its parts.
    func nameAnchor(_ from: String, _ to: String, _ name: String) -> String {
        "<a href=\"\(HTML.escape(HTML.href(from: from, to: to)))\">\(HTML.breakable(name))</a>"
    }

    static let severities = ["error", "warning", "note"]
    static let severityNames = ["error": "Errors", "warning": "Warnings", "note": "Notes"]

    func trendChart(id: String, title: String, nights: [DashboardQueries.Night], subject: String) -> String {
        guard !nights.isEmpty else { return "<p>No audited nights yet.</p>" }
        let labels = nights.map(Self.chartLabel)
        let last = nights[nights.count - 1]
        let description = "Open findings of \(subject) by severity over \(nights.count) runs, from \(labels[0]) to \(labels[labels.count - 1]); "
            + "on \(last.date): \(last.openBySeverity["error"] ?? 0) errors, \(last.openBySeverity["warning"] ?? 0) warnings, \(last.openBySeverity["note"] ?? 0) notes."
        return Chart.line(id: id, title: title, description: description, labels: labels,
                          series: Self.severities.map { severity in
                              Chart.Series(name: Self.severityNames[severity] ?? severity, kind: severity,
                                           values: nights.map { $0.openBySeverity[severity] ?? 0 })
                          })
    }

    func changeChart(id: String, title: String, nights: [DashboardQueries.Night], subject: String) -> String {
        guard !nights.isEmpty else { return "" }
        let description = "New and fixed findings of \(subject) per run over \(nights.count) runs; "
            + "in total \(nights.map(\.new).reduce(0, +)) new and \(nights.map(\.fixed).reduce(0, +)) fixed."
        return Chart.line(id: id, title: title, description: description, labels: nights.map(Self.chartLabel),
                          series: [Chart.Series(name: "New", kind: "new", values: nights.map(\.new)),
                                   Chart.Series(name: "Fixed", kind: "fixed", values: nights.map(\.fixed))])
    }

    /// Findings as people act on them: violations by severity (errors first), then what needs
    /// review, each grouped by file with counts. Every finding names its rule (title and id),
    /// links its line on the forge at the audited commit when the forge is known (`commits`, by
    /// repository), and offers the suppression comment for Swift; a rule's fix is shown once per
    /// section. A file owned by another team than `pageTeam` (CODEOWNERS) says so.
    func findingList(_ findings: [DashboardQueries.Finding], from path: String, showRepository: Bool, pageTeam: Int?? = nil,
                     commits: [Int: String] = [:]) -> String {
        let sections: [(title: String, id: String, items: [DashboardQueries.Finding])] = [
            ("Errors", "error", findings.filter { $0.certainty == .violation && $0.severity == .error }),
            ("Warnings", "warning", findings.filter { $0.certainty == .violation && $0.severity == .warning }),
            ("Notes", "note", findings.filter { $0.certainty == .violation && $0.severity == .note }),
            ("Needs review", "review", findings.filter { $0.certainty == .review }),
        ]
        var html = ""
        for section in sections where !section.items.isEmpty {
            let items = section.items.sorted { ($0.repository, $0.path, $0.line, $0.ruleID) < ($1.repository, $1.path, $1.line, $1.ruleID) }
            html += "<section class=\"finding-section finding-section--\(section.id)\"><h3>\(section.title) (\(HTML.number(items.count)))</h3>"
            if section.id == "review" {
                html += "<p>The rule could not settle these from the code: a person decides whether each is a defect.</p>"
            }
            var index = 0
            while index < items.count {
                let first = items[index]
                var end = index
                while end < items.count, items[end].repositoryID == first.repositoryID, items[end].path == first.path { end += 1 }
                let group = showRepository ? "\(first.repository) · \(first.path)" : first.path
                var owner = ""
                if let pageTeam, first.teamID != pageTeam, let team = first.teamID.flatMap({ teamNames[$0] }) {
                    owner = " <span class=\"owner\">owned by \(HTML.escape(team))</span>"
                }
                html += "<section class=\"file-group\"><h4>\(HTML.breakable(group)) <span class=\"count\">(\(end - index))</span>\(owner)</h4><ul class=\"findings\">"
                for finding in items[index..<end] { html += findingItem(finding, from: path, commit: commits[finding.repositoryID]) }
                html += "</ul></section>"
                index = end
            }
            var seen = Set<String>()
            let fixes = items.compactMap { finding -> RuleDescription? in
                guard seen.insert(finding.ruleID).inserted else { return nil }
                return rules[finding.ruleID]
            }
            if !fixes.isEmpty {
                html += "<details class=\"fixes\"><summary>How to fix \(fixes.count == 1 ? "this rule" : "these \(fixes.count) rules")</summary><dl>"
                for rule in fixes { html += "<dt>\(anchor(path, Self.rulePath(rule.id), rule.title))</dt><dd>\(HTML.inlineCode(rule.fix))</dd>" }
                html += "</dl></details>"
            }
            html += "</section>"
        }
        return html
    }

    private func findingItem(_ finding: DashboardQueries.Finding, from path: String, commit: String?) -> String {
        let rule = rules[finding.ruleID]
        // What filters.js filters by.
        let owner = finding.teamID.flatMap { teamNames[$0] } ?? ""
        var html = "<li class=\"finding\" data-severity=\"\(finding.certainty == .review ? "review" : finding.severity.rawValue)\" "
        html += "data-kind=\"\(finding.kind.rawValue)\" data-rule=\"\(HTML.escape(finding.ruleID))\" data-owner=\"\(HTML.escape(owner))\"><p class=\"finding-head\">\(Badge.severity(finding.severity.rawValue)) "
        html += anchor(path, Self.rulePath(finding.ruleID), rule?.title ?? finding.ruleID)
        html += " <code class=\"rule-id\">\(HTML.escape(finding.ruleID))</code> "
        let location = "line \(finding.line), column \(finding.column)"
        if let link = ForgeLink.blob(forges[finding.repositoryID], commit: commit, path: finding.path, line: finding.line) {
            html += "<a class=\"location\" href=\"\(HTML.escape(link))\">\(location)<span class=\"visually-hidden\"> of \(HTML.escape(finding.path)) at commit \(HTML.escape(String((commit ?? "").prefix(7))))</span></a></p>"
        } else {
            html += "<span class=\"location\">\(location)</span></p>"
        }
        html += "<p class=\"message\">\(HTML.inlineCode(finding.message))</p>"
        if !finding.sourceLine.isEmpty || !finding.snippet.isEmpty {
            html += "<pre class=\"snippet\"><code>\(HTML.escape(finding.sourceLine.isEmpty ? finding.snippet : finding.sourceLine))</code></pre>"
        }
        if let correction = finding.correction { html += Self.suggestion(correction, finding: finding) }
        if finding.path.hasSuffix(".swift") {
            html += "<p class=\"suppress\">To suppress, put above the line: <code>// a11y-audit:disable:next \(HTML.escape(finding.ruleID))</code></p>"
        }
        return html + "</li>"
    }

    /// A finding's mechanical fix: what it does, and the finding's line as it leaves it (the line
    /// before is the snippet just above), then any edit it makes on other lines.
    static func suggestion(_ correction: Correction, finding: DashboardQueries.Finding) -> String {
        var html = "<p class=\"suggestion\">Fixable: \(HTML.inlineCode(correction.summary)). <code>a11y-audit fix</code> applies it"
        if let edited = correction.editedLine(finding.sourceLine, number: finding.line) {
            html += "; the line becomes:</p><pre class=\"snippet snippet--fixed\"><code>\(HTML.escape(edited))</code></pre>"
        } else {
            html += ".</p>"
        }
        let elsewhere = correction.editsElsewhere(than: finding.line)
        if !elsewhere.isEmpty {
            html += "<p class=\"suggestion\">It also edits \(elsewhere.map(HTML.inlineCode).joined(separator: "; ")).</p>"
        }
        return html
    }
}
