import AuditModel
import AuditStore
import Foundation
import PullRequestVerdict
import SwiftChecks

extension SiteRenderer {
    // MARK: Overview

    func renderOverview(teams: [DashboardQueries.Team], runs: [DashboardQueries.Run]) throws {
        let path = "index.html"
        var body = ""
        let nights = try queries.trend(org: org)
        if let latest = runs.first {
            let failed = try queries.jobs(runID: latest.id, states: [.dead, .failed])
            let audited = latest.jobsByState[.succeeded] ?? 0
            body += "<section aria-labelledby=\"last-run\"><h2 id=\"last-run\">Last run</h2>"
            body += "<p>\(anchor(path, Self.runPath(latest.id), "Run \(latest.id)")) (\(HTML.escape(latest.kind.rawValue)), \(HTML.escape(latest.date))): "
            body += "\(Badge.state(latest.state.rawValue)), \(audited) of \(latest.jobsTotal) repositories audited, \(failed.count) failed, "
            body += "took \(HTML.duration(latest.durationSeconds)).</p>"
            if !failed.isEmpty {
                body += table(caption: "Jobs that failed in run \(latest.id)", headers: [("Repository", false), ("State", false), ("Attempts", true), ("Reason", false)],
                              rows: failed.map { job in
                                  [anchor(path, Self.jobPath(job.id), job.repository), Badge.state(job.state.rawValue), "\(job.attempt) of \(job.maxAttempts)",
                                   HTML.escape(job.lastError ?? "")]
                              }, empty: "")
            }
            body += "</section>"
        } else {
            body += "<p>No run yet: schedule one with <code>a11y-audit schedule --config org.json --now</code>.</p>"
        }
        let open = try queries.openByRule(org: org)
        let byRule = Dictionary(uniqueKeysWithValues: open.map { ($0.rule, $0.count) })
        var bySeverity: [String: Int] = [:], byKind: [String: Int] = [:]
        for description in catalog {
            guard let count = byRule[description.id] else { continue }
            bySeverity[description.severity.rawValue, default: 0] += count
            byKind[description.kind.rawValue, default: 0] += count
        }
        // Severity overrides in a repository config move findings between severities; the latest
        // run's counts say what was reported.
        if let last = nights.last { bySeverity = last.openBySeverity }
        body += "<section aria-labelledby=\"now\"><h2 id=\"now\">Open findings now</h2><ul class=\"totals\">"
        for severity in Self.severities {
            body += "<li>\(Badge.severity(severity)) <strong>\(HTML.number(bySeverity[severity] ?? 0))</strong></li>"
        }
        body += "</ul><ul class=\"totals\">"
        for kind in ["requirement", "recommendation", "advisory"] {
            body += "<li>\(Badge.kind(kind)) <strong>\(HTML.number(byKind[kind] ?? 0))</strong></li>"
        }
        body += "</ul>"
        body += trendChart(id: "org-trend", title: "Open findings by severity, last \(nights.count) runs", nights: nights, subject: org)
        body += "</section>"

        body += "<section aria-labelledby=\"teams\"><h2 id=\"teams\">Teams</h2>"
        body += table(caption: "Teams ranked by open requirement-level findings",
                      headers: [("Team", false), ("Open requirements", true), ("Open findings", true), ("Change in the last run", true),
                                ("New", true), ("Fixed", true)],
                      rows: teams.map { team in
                          [anchor(path, Self.teamPath(team.slug), team.name), HTML.number(team.openRequirements), HTML.number(team.openTotal),
                           HTML.change(team.change), HTML.number(team.newInLatest), HTML.number(team.fixedInLatest)]
                      }, empty: "No teams in the org config.")
        body += "</section>"
        if let latest = runs.first { body += try regressedSection(teams: teams, run: latest, from: path) }
        try write(path, page(path, title: "Accessibility overview", body))
    }

    /// Who regressed in `run`: the teams with new findings, those with new requirement-level
    /// violations first, each with what is new (top rules, repositories) and its report. Net
    /// change would hide a team that introduced a requirement and fixed a note.
    func regressedSection(teams: [DashboardQueries.Team], run: DashboardQueries.Run, from path: String) throws -> String {
        let regressed = teams.filter { $0.newInLatest > 0 }
            .sorted { ($0.newRequirementsInLatest, $0.newInLatest, $1.name) > ($1.newRequirementsInLatest, $1.newInLatest, $0.name) }
        var body = "<section aria-labelledby=\"regressed\"><h2 id=\"regressed\">Who regressed in \(HTML.escape(runLabel(run)))</h2>"
        guard !regressed.isEmpty else {
            let baseline = run.baseline > 0 ? " \(HTML.number(run.baseline)) existing findings were recorded as the baseline of first audits." : ""
            return body + "<p>No team has new findings in this run.\(baseline)</p></section>"
        }
        let details = try queries.newInRun(run.id)
        func list(_ items: [String], more: Int) -> String {
            "<ul class=\"inline-list\">" + items.map { "<li>\($0)</li>" }.joined() + (more > 0 ? "<li>and \(more) more</li>" : "") + "</ul>"
        }
        body += table(caption: "Teams with new findings in \(runLabel(run)), new requirement-level violations first",
                      headers: [("Team", false), ("New requirement-level", true), ("New", true), ("Fixed", true),
                                ("Top new rules", false), ("Repositories", false), ("Report", false)],
                      rows: regressed.map { team in
                          let new = details[team.id] ?? DashboardQueries.NewInRun()
                          let topRules = new.rules.prefix(3).map { "\(anchor(path, Self.rulePath($0.name), self.rules[$0.name]?.title ?? $0.name)) (\($0.count))" }
                          let repositories = new.repositories.prefix(3).map { "\(nameAnchor(path, repositoryPath($0.id ?? 0), $0.name)) (\($0.count))" }
                          return [anchor(path, Self.teamPath(team.slug), team.name), HTML.number(team.newRequirementsInLatest),
                                  HTML.number(team.newInLatest), HTML.number(team.fixedInLatest),
                                  list(topRules, more: new.rules.count - topRules.count), list(repositories, more: new.repositories.count - repositories.count),
                                  anchor(path, Self.regressionPath(team.slug, runID: run.id), "Regression report")]
                      }, empty: "")
        return body + "</section>"
    }

    /// A run as people tell runs apart: its date, and its kind unless nightly ("2026-11-29,
    /// manual run 14"), so two runs of one day never read the same.
    func runLabel(_ run: DashboardQueries.Run) -> String { Self.runLabel(date: run.date, kind: run.kind, id: run.id) }

    static func runLabel(date: String, kind: RunKind, id: Int) -> String {
        kind == .nightly ? "the night of \(date)" : "\(date), \(kind.rawValue) run \(id)"
    }

    /// A chart's label for a run: the date, with the kind when it is not the nightly run.
    static func chartLabel(_ night: DashboardQueries.Night) -> String {
        night.kind == .nightly ? night.date : "\(night.date) (\(night.kind.rawValue))"
    }

    // MARK: Teams

    func renderTeam(_ team: DashboardQueries.Team, runs: [DashboardQueries.Run], allNights: Bool, nights changedNights: Set<Int> = []) throws {
        let path = Self.teamPath(team.slug)
        let nights = try queries.trend(org: org, teamID: team.id)
        var body = "<p>\(HTML.number(team.openRequirements)) open requirement-level findings, \(HTML.number(team.openTotal)) open in all; "
        body += "\(HTML.change(team.change)) in the last run (\(team.newInLatest) new, \(team.fixedInLatest) fixed).</p>"
        body += "<section aria-labelledby=\"trend\"><h2 id=\"trend\">Trend</h2>"
        body += trendChart(id: "team-trend", title: "Open findings of \(team.name) by severity", nights: nights, subject: team.name)
        body += changeChart(id: "team-change", title: "New and fixed findings of \(team.name) per run", nights: nights, subject: team.name)
        body += "</section>"

        // The latest night's regression report, inline, and the dated archive.
        let reported = runs.filter { run in nights.contains { $0.runID == run.id } }
        if let latest = reported.first {
            let regressions = try queries.findings(teamID: team.id, runID: latest.id, fixed: false)
            let fixes = try queries.findings(teamID: team.id, runID: latest.id, fixed: true)
            let commits = try queries.commits(runID: latest.id, repositoryIDs: Array(Set((regressions + fixes).map(\.repositoryID))))
            body += "<section aria-labelledby=\"regressions\"><h2 id=\"regressions\">New in \(HTML.escape(runLabel(latest)))</h2>"
            body += "<p>\(regressions.count) new \(regressions.count == 1 ? "finding" : "findings") since the run before. "
            body += anchor(path, Self.regressionPath(team.slug, runID: latest.id), "Permanent link to this report") + "</p>"
            body += findingList(regressions, from: path, showRepository: true, pageTeam: .some(team.id), commits: commits)
            body += "</section><section aria-labelledby=\"fixes\"><h2 id=\"fixes\">Fixed in \(HTML.escape(runLabel(latest)))</h2>"
            body += fixes.isEmpty ? "<p>No fixes in this run.</p>"
                : "<p>\(fixes.count) fixed: thank you.</p>" + findingList(fixes, from: path, showRepository: true, pageTeam: .some(team.id))
            body += "</section>"
        }
        let topRules = try queries.openByRule(org: org, teamID: team.id)
        body += "<section aria-labelledby=\"top-rules\"><h2 id=\"top-rules\">Top rules</h2>"
        body += table(caption: "Open findings of \(team.name) by rule", headers: [("Rule", false), ("Open findings", true)],
                      rows: topRules.prefix(10).map { rule in
                          [anchor(path, Self.rulePath(rule.rule), rules[rule.rule]?.title ?? rule.rule),
                           HTML.number(rule.count)]
                      }, empty: "No open findings.")
        body += "</section>"
        let owned = try queries.openOwned(byTeam: team.id)
        body += "<section aria-labelledby=\"where\"><h2 id=\"where\">Where the open findings are</h2>"
        body += try writeExports(queries.openFindings(teamID: team.id).map { exportRow($0.finding, change: "open", commit: $0.commit) },
                                 beside: path, what: "\(team.name)'s open findings")
        body += table(caption: "Repositories holding open findings \(team.name) owns, its own and those where CODEOWNERS gives it files",
                      headers: [("Repository", false), ("Requirement-level violations", true), ("Open findings", true)],
                      rows: owned.map { entry in
                          [nameAnchor(path, repositoryPath(entry.repositoryID), entry.repository)
                              + (entry.otherTeam.map { " <span class=\"owner\">(\(HTML.escape($0))'s repository)</span>" } ?? ""),
                           HTML.number(entry.requirements), HTML.number(entry.open)]
                      }, empty: "No open findings.")
        body += "</section>"
        let repositories = try queries.repositories(org: org, teamID: team.id)
        let sparklines = try queries.repositoryTrends(org: org, teamID: team.id)
        body += "<section aria-labelledby=\"repositories\"><h2 id=\"repositories\">Repositories</h2>"
        body += table(caption: "Repositories of \(team.name)", headers: [("Repository", false), ("Open requirements", true), ("Open findings", true), ("Trend", false)],
                      rows: repositories.map { repository in
                          let values = sparklines[repository.id] ?? []
                          let label = values.isEmpty ? "no audited runs"
                              : "Open findings over the last \(values.count) runs: from \(values.first ?? 0) to \(values.last ?? 0)"
                          return [nameAnchor(path, repositoryPath(repository.id), repository.name) + (repository.active ? "" : " (no longer audited)"),
                                  HTML.number(repository.openRequirements), HTML.number(repository.open), Chart.sparkline(values, label: label)]
                      }, empty: "No repositories.")
        body += "</section>"
        body += "<p>\(anchor(path, Self.teamReadinessPath(team.slug), "Accessibility Nutrition Label readiness of \(team.name)'s apps"))</p>"
        body += "<section aria-labelledby=\"archive\"><h2 id=\"archive\">Regression reports</h2><ul class=\"archive\">"
        for run in reported {
            body += "<li>\(anchor(path, Self.regressionPath(team.slug, runID: run.id), "\(run.date): \(run.kind.rawValue) run \(run.id)"))</li>"
        }
        body += "</ul></section>"
        try write(path, page(path, title: "Team \(team.name)", breadcrumbs: [("Overview", "index.html")], body))

        // The archive, a report per run: every run on a full render, the runs jobs changed after jobs.
        for run in reported where allNights || changedNights.contains(run.id) || run.id == reported.first?.id {
            try renderRegressionReport(team, run: run)
        }
    }

    func renderRegressionReport(_ team: DashboardQueries.Team, run: DashboardQueries.Run) throws {
        let path = Self.regressionPath(team.slug, runID: run.id)
        let regressions = try queries.findings(teamID: team.id, runID: run.id, fixed: false)
        let fixes = try queries.findings(teamID: team.id, runID: run.id, fixed: true)
        let commits = try queries.commits(runID: run.id, repositoryIDs: Array(Set(regressions.map(\.repositoryID))))
        // The newest runs' reports are exported (as their job pages are kept): exporting all 3,600
        // reports of a 90-night history doubled a whole render.
        let exports = recentRunIDs.contains(run.id)
            ? try writeExports(regressions.map { exportRow($0, change: "new", commit: commits[$0.repositoryID]) }
                                   + fixes.map { exportRow($0, change: "fixed", commit: nil) },
                               beside: path, what: "this report's new and fixed findings")
            : ""
        var body = "<p>\(anchor(path, Self.runPath(run.id), "Run \(run.id)")) (\(HTML.escape(run.kind.rawValue)), \(HTML.escape(run.date))): "
        body += "\(regressions.count) new, \(fixes.count) fixed for team \(anchor(path, Self.teamPath(team.slug), team.name)).</p>"
        body += exports
        body += "<section aria-labelledby=\"new\"><h2 id=\"new\">New findings</h2>"
        body += regressions.isEmpty ? "<p>No new findings: nothing regressed.</p>"
            : findingList(regressions, from: path, showRepository: true, pageTeam: .some(team.id), commits: commits)
        body += "</section><section aria-labelledby=\"fixed\"><h2 id=\"fixed\">Fixed findings</h2>"
        body += fixes.isEmpty ? "<p>No fixes in this run.</p>" : findingList(fixes, from: path, showRepository: true, pageTeam: .some(team.id))
        body += "</section>"
        try write(path, page(path, title: "\(team.name): regressions of \(runLabel(run))",
                             breadcrumbs: [("Overview", "index.html"), ("Team \(team.name)", Self.teamPath(team.slug))], body))
    }

    // MARK: Repositories

    func renderRepository(_ repository: DashboardQueries.Repository) throws {
        let path = repositoryPath(repository.id)
        let findings = try queries.openFindings(repositoryID: repository.id)
        let jobs = try queries.jobs(repositoryID: repository.id, limit: 30)
        // Pull requests audit unmerged heads: the repository's state is its last branch audit.
        let lastDone = try lastAudited(repository, among: jobs)
        var body = "<p>"
        if let teamName = repository.teamName, let teamSlug = repository.teamSlug {
            body += "Team \(anchor(path, Self.teamPath(teamSlug), teamName)). "
        }
        body += "\(HTML.number(findings.count)) open findings, \(HTML.number(repository.openRequirements)) of them requirements.</p>"
        if let lastDone {
            try keepPage(ofLastAudited: lastDone)
            body += "<p>Last audited: \(anchor(path, Self.jobPath(lastDone.id), "job \(lastDone.id)")) at \(HTML.escape(lastDone.finishedAt ?? "")) UTC, "
            body += "<code>\(HTML.escape(lastDone.commitSHA ?? lastDone.commitRef))</code>; \(lastDone.filesScanned ?? 0) files checked, "
            body += "\(lastDone.suppressed ?? 0) findings suppressed inline.</p>"
        }
        if !repository.active { body += "<p>This repository is no longer in the org config; its history is kept.</p>" }
        let nights = try queries.trend(org: org, repositoryID: repository.id)
        body += "<section aria-labelledby=\"history\"><h2 id=\"history\">History</h2>"
        body += trendChart(id: "repo-trend", title: "Open findings of \(repository.name) by severity", nights: nights, subject: repository.name)
        body += "</section>"
        body += "<section aria-labelledby=\"readiness\"><h2 id=\"readiness\">Accessibility Nutrition Label readiness</h2>"
        body += readinessTable(findings, platforms: repository.platforms, from: path, caption: "Static evidence per label for \(repository.name)")
        body += "</section>"
        body += "<section aria-labelledby=\"open\"><h2 id=\"open\">Open findings</h2>"
        body += try writeExports(findings.map { exportRow($0, change: "open", commit: lastDone?.commitSHA) }, beside: path,
                                 what: "the open findings of \(repository.name)")
        body += try pagedFindingList(findings, page: path, title: repository.name, breadcrumbs: [("Overview", "index.html")],
                                     pageTeam: .some(repository.teamID), commits: lastDone?.commitSHA.map { [repository.id: $0] } ?? [:])
        body += "</section>"
        if let config = lastDone?.configJSON {
            body += "<section aria-labelledby=\"config\"><h2 id=\"config\">Configuration in effect</h2>"
            body += "<pre><code>\(HTML.escape(prettyJSON(config)))</code></pre></section>"
        } else {
            body += "<section aria-labelledby=\"config\"><h2 id=\"config\">Configuration in effect</h2><p>No <code>.a11y-audit.json</code>: defaults.</p></section>"
        }
        try write(path, page(path, title: repository.name, breadcrumbs: [("Overview", "index.html")], body))
    }

    // MARK: Runs and jobs

    func renderRunsIndex(_ runs: [DashboardQueries.Run]) throws {
        let path = "runs/index.html"
        let body = table(caption: "Runs, newest first", headers: [("Run", false), ("Date", false), ("Kind", false), ("State", false),
                                                                  ("Jobs", true), ("Failed", true), ("Duration", true)],
                         rows: runs.map { run in
                             [anchor(path, Self.runPath(run.id), "Run \(run.id)"), HTML.escape(run.date), HTML.escape(run.kind.rawValue), Badge.state(run.state.rawValue),
                              HTML.number(run.jobsTotal), HTML.number((run.jobsByState[.dead] ?? 0) + (run.jobsByState[.failed] ?? 0)),
                              HTML.duration(run.durationSeconds)]
                         }, empty: "No runs yet.")
        try write(path, page(path, title: "Runs", breadcrumbs: [("Overview", "index.html")], body))
    }

    func jobTable(_ jobs: [DashboardQueries.Job], from path: String, caption: String, empty: String) -> String {
        table(caption: caption, headers: [("Repository", false), ("State", false), ("Attempts", true), ("Open", true),
                                          ("New", true), ("Fixed", true), ("Files", true), ("Reason", false)],
              rows: jobs.sorted { $0.repository < $1.repository }.map { job in
                  [hasJobPage(job) ? nameAnchor(path, Self.jobPath(job.id), job.repository) : HTML.breakable(job.repository),
                   Badge.state(job.state.rawValue), "\(job.attempt) of \(job.maxAttempts)",
                   job.open.map(HTML.number) ?? "–", job.new.map(HTML.number) ?? "–", job.fixed.map(HTML.number) ?? "–",
                   job.filesScanned.map(HTML.number) ?? "–", HTML.escape(job.state == .succeeded ? "" : job.lastError ?? "")]
              }, empty: empty)
    }

    /// A run's page: what did not succeed, and its jobs per team on a page per team (a run of
    /// 10,000 repositories in one table took 157 ms to read and megabytes to show).
    func renderRun(_ run: DashboardQueries.Run, teams: [DashboardQueries.Team]) throws {
        let path = Self.runPath(run.id)
        let failed = try queries.jobs(runID: run.id, states: JobState.allCases.filter { $0 != .succeeded })
        let byTeam = try queries.runJobsByTeam(runID: run.id)
        var body = "<p>\(Badge.state(run.state.rawValue)) \(HTML.escape(run.kind.rawValue)) run of \(HTML.escape(run.date)), started \(HTML.escape(run.startedAt)) UTC, "
        body += "took \(HTML.duration(run.durationSeconds)). "
        body += run.jobsByState.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ") + ".</p>"
        // The newest runs' new and fixed findings, organisation-wide, as the teams' reports export theirs.
        if recentRunIDs.contains(run.id) {
            let new = try queries.findings(teamID: nil, runID: run.id, fixed: false)
            let fixed = try queries.findings(teamID: nil, runID: run.id, fixed: true)
            let commits = try queries.commits(runID: run.id, repositoryIDs: Array(Set(new.map(\.repositoryID))))
            body += try writeExports(new.map { exportRow($0, change: "new", commit: commits[$0.repositoryID]) }
                                         + fixed.map { exportRow($0, change: "fixed", commit: nil) },
                                     beside: path, what: "this run's new and fixed findings")
        }
        body += "<h2>Jobs that did not succeed</h2>"
        body += jobTable(failed, from: path, caption: "Jobs of run \(run.id) that did not succeed", empty: "Every job of this run succeeded.")
        var groups: [(name: String, page: String, jobs: DashboardQueries.RunTeamJobs, team: DashboardQueries.Team?)] = []
        for team in teams { if let jobs = byTeam[team.id] { groups.append((team.name, Self.runTeamPath(run.id, team: team.slug), jobs, team)) } }
        if let jobs = byTeam[nil] { groups.append(("No team", Self.runTeamPath(run.id, team: nil), jobs, nil)) }
        body += "<h2>Jobs by team</h2>"
        body += table(caption: "Jobs of run \(run.id) by team", headers: [("Team", false), ("Jobs", true), ("Succeeded", true), ("Open", true),
                                                                        ("New", true), ("Fixed", true)],
                      rows: groups.map { group in
                          [anchor(path, group.page, group.name), HTML.number(group.jobs.jobs), HTML.number(group.jobs.succeeded),
                           HTML.number(group.jobs.open), HTML.number(group.jobs.new), HTML.number(group.jobs.fixed)]
                      }, empty: "This run has no jobs.")
        try write(path, page(path, title: "Run \(run.id)", breadcrumbs: [("Overview", "index.html"), ("Runs", "runs/index.html")], body))
        for group in groups {
            let teamPath = group.page
            let jobs = try queries.jobs(runID: run.id, team: .some(group.team?.id))
            let teamBody = jobTable(jobs, from: teamPath, caption: "Jobs of run \(run.id): \(group.name)", empty: "No jobs.")
            try write(teamPath, page(teamPath, title: "Run \(run.id): \(group.name)",
                                     breadcrumbs: [("Overview", "index.html"), ("Runs", "runs/index.html"), ("Run \(run.id)", path)], teamBody))
        }
    }

    func renderJob(_ job: DashboardQueries.Job) throws {
        let path = Self.jobPath(job.id)
        var body = "<dl class=\"facts\">"
        func fact(_ name: String, _ value: String) { body += "<dt>\(HTML.escape(name))</dt><dd>\(value)</dd>" }
        fact("Repository", anchor(path, repositoryPath(job.repositoryID), job.repository))
        if let run = job.runID { fact("Run", anchor(path, Self.runPath(run), "Run \(run)")) }
        fact("State", Badge.state(job.state.rawValue))
        fact("Kind", HTML.escape(job.kind.rawValue))
        fact("Commit", "<code>\(HTML.escape(job.commitSHA ?? job.commitRef))</code>")
        fact("Attempts", "\(job.attempt) of \(job.maxAttempts)")
        fact("Created", HTML.escape(job.createdAt) + " UTC")
        if let started = job.startedAt { fact("Started", HTML.escape(started) + " UTC") }
        if let finished = job.finishedAt { fact("Finished", HTML.escape(finished) + " UTC") }
        if let fetch = job.fetchMilliseconds, let scan = job.scanMilliseconds {
            fact("Durations", "fetch \(fetch) ms, scan \(scan) ms, write \(job.writeMilliseconds ?? 0) ms")
        }
        if let files = job.filesScanned {
            fact("Files", "\(files) checked, \(job.filesParsed ?? 0) parsed, \(job.cacheHits ?? 0) from the cache")
            fact("Findings", "\(job.open ?? 0) open, \(job.new ?? 0) new, \(job.fixed ?? 0) fixed, \(job.suppressed ?? 0) suppressed")
        }
        if let error = job.lastError, job.state != .succeeded { fact("Last error", HTML.escape(error)) }
        body += "</dl>"
        let attempts = (try? JSONSerialization.jsonObject(with: Data(job.errorsJSON.utf8))) as? [[String: Any]] ?? []
        body += "<h2>Failed attempts</h2>"
        body += table(caption: "Failed attempts of job \(job.id)", headers: [("Attempt", true), ("Worker", false), ("When (UTC)", false), ("Error", false)],
                      rows: attempts.map { attempt in
                          [HTML.escape("\(attempt["attempt"] ?? "")"), HTML.escape("\(attempt["worker"] ?? "")"),
                           HTML.escape(String("\(attempt["at"] ?? "")".prefix(19)).replacingOccurrences(of: "T", with: " ")),
                           HTML.escape("\(attempt["error"] ?? "")")]
                      }, empty: "No failed attempts.")
        let notes = (job.notesJSON.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [[String: Any]]) ?? []
        body += "<h2>Notes</h2>"
        body += table(caption: "What the scan skipped or could not read", headers: [("File", false), ("Kind", false), ("Note", false)],
                      rows: notes.map { note in
                          [HTML.escape("\(note["file"] ?? "")" + (note["line"].map { ":\($0)" } ?? "")), HTML.escape("\(note["kind"] ?? "")"),
                           HTML.escape("\(note["message"] ?? "")")]
                      }, empty: "No notes.")
        var breadcrumbs = [("Overview", "index.html")]
        if let run = job.runID { breadcrumbs.append(("Run \(run)", Self.runPath(run))) }
        try write(path, page(path, title: "Job \(job.id): \(job.repository)", breadcrumbs: breadcrumbs, body))
    }

    // MARK: Rules

    func renderRules() throws {
        let counts = Dictionary(uniqueKeysWithValues: try queries.openByRule(org: org).map { ($0.rule, $0.count) })
        let indexPath = "rules/index.html"
        let body = table(caption: "Rules, with open findings across the organisation",
                         headers: [("Rule", false), ("Kind", false), ("Severity", false), ("Platforms", false), ("Open findings", true)],
                         rows: catalog.map { rule in
                             [anchor(indexPath, Self.rulePath(rule.id), rule.title), Badge.kind(rule.kind.rawValue), Badge.severity(rule.severity.rawValue),
                              HTML.escape(rule.platforms.description), HTML.number(counts[rule.id] ?? 0)]
                         }, empty: "")
        try write(indexPath, page(indexPath, title: "Rules", breadcrumbs: [("Overview", "index.html")], body))
        let spread = try queries.ruleSpread(org: org)
        let trends = try queries.ruleTrends(org: org)
        let teamSlugs = Dictionary(try queries.teams(org: org, latestRun: nil).map { ($0.id, $0.slug) }, uniquingKeysWith: { first, _ in first })
        for rule in catalog {
            let path = Self.rulePath(rule.id)
            var body = "<p><code>\(HTML.escape(rule.id))</code> · \(Badge.kind(rule.kind.rawValue)) · \(Badge.severity(rule.severity.rawValue)) · "
            body += "\(HTML.escape(rule.platforms.description)) · \(HTML.number(counts[rule.id] ?? 0)) open findings in \(HTML.escape(org))</p>"
            body += whereRuleIs(rule, spread: spread[rule.id] ?? DashboardQueries.RuleSpread(), trend: trends[rule.id] ?? [],
                                teamSlugs: teamSlugs, from: path)
            body += "<h2>What and why</h2><p>\(HTML.inlineCode(rule.rationale))</p>"
            for citation in rule.citations {
                body += "<blockquote><p>\(HTML.breakable(citation.quote))</p><footer>\(HTML.breakable(citation.source))</footer></blockquote>"
            }
            body += "<h2>How to fix</h2><p>\(HTML.inlineCode(rule.fix))</p>"
            body += "<h2>What a static check cannot decide</h2><p>\(HTML.inlineCode(rule.limitations))</p>"
            let labels = NutritionLabel.allCases.filter { $0.rules.contains(rule.id) }
            if !labels.isEmpty { body += "<p>Evidence for the Nutrition Labels: \(labels.map { HTML.escape($0.rawValue) }.joined(separator: ", ")).</p>" }
            body += "<h2>Examples that are reported</h2>"
            for example in rule.triggering { body += "<pre><code>\(HTML.escape(example.code.replacingOccurrences(of: "↓", with: "")))</code></pre>" }
            body += "<h2>Examples that are not reported</h2>"
            for example in rule.nonTriggering { body += "<pre><code>\(HTML.escape(example.code))</code></pre>" }
            if !rule.needsReview.isEmpty {
                body += "<h2>Examples handed to a person (needs review)</h2>"
                for example in rule.needsReview {
                    body += "<pre><code>\(HTML.escape(example.code.replacingOccurrences(of: "↓", with: "")))</code></pre>"
                }
            }
            try write(path, page(path, title: rule.title, breadcrumbs: [("Overview", "index.html"), ("Rules", indexPath)], body))
        }
    }

    /// A rule's open findings: where they are (per team, the repositories with most) and their
    /// trend per run.
    func whereRuleIs(_ rule: RuleDescription, spread: DashboardQueries.RuleSpread, trend: [DashboardQueries.Night],
                     teamSlugs: [Int: String], from path: String) -> String {
        var body = "<section aria-labelledby=\"where\"><h2 id=\"where\">Where they are</h2>"
        guard !spread.teams.isEmpty else { return body + "<p>No open findings of this rule.</p></section>" }
        body += table(caption: "Open findings of this rule by team", headers: [("Team", false), ("Open findings", true)],
                      rows: spread.teams.map { team in
                          [team.id.flatMap { teamSlugs[$0] }.map { anchor(path, Self.teamPath($0), team.name) } ?? "No team", HTML.number(team.count)]
                      }, empty: "")
        let more = spread.repositoryCount - spread.repositories.count
        body += table(caption: "Repositories with most open findings of this rule" + (more > 0 ? " (\(spread.repositories.count) of \(spread.repositoryCount))" : ""),
                      headers: [("Repository", false), ("Open findings", true)],
                      rows: spread.repositories.map { repository in
                          [repository.id.map { nameAnchor(path, repositoryPath($0) + "#open", repository.name) } ?? HTML.breakable(repository.name),
                           HTML.number(repository.count)]
                      }, empty: "")
        if more > 0 { body += "<p>And \(HTML.number(more)) more repositories.</p>" }
        body += trendChart(id: "rule-trend", title: "Open findings of \(rule.title) by severity", nights: trend, subject: rule.title)
        return body + "</section>"
    }

    // MARK: Nutrition Label readiness

    func readinessTable(_ findings: [DashboardQueries.Finding], platforms: PlatformSet?, from path: String, caption: String) -> String {
        var rows: [[String]] = []
        for label in NutritionLabel.allCases {
            if !label.isOffered(on: platforms) {
                rows.append(["<span id=\"\(Self.labelAnchor(label))\">\(HTML.escape(label.rawValue))</span>",
                             "<span class=\"badge\">n/a<span class=\"visually-hidden\">: not offered</span></span>",
                             HTML.escape(label.platformNote(for: platforms) ?? "Not offered for this app's platforms.")])
                continue
            }
            let relevant = findings.filter { label.bearsOn(ruleID: $0.ruleID, snippet: $0.snippet) }
            // Only a requirement-level violation blocks a label; recommendations and what needs
            // review are for a person to check.
            let blocking = relevant.filter(Self.blocks)
            var evidence: String
            if let reason = label.notCheckable {
                evidence = "Not checkable statically. \(HTML.escape(reason))"
            } else if relevant.isEmpty {
                evidence = "No static blockers found (verify on device)."
            } else {
                let byRule = Dictionary(grouping: relevant, by: \.ruleID).sorted { $0.key < $1.key }
                evidence = "\(blocking.count) requirement-level \(blocking.count == 1 ? "violation" : "violations"), "
                evidence += "\(relevant.count - blocking.count) more to check: "
                evidence += byRule.map { rule, items in "\(anchor(path, Self.rulePath(rule), rules[rule]?.title ?? rule)) (\(items.count))" }
                    .joined(separator: ", ")
            }
            if let note = label.platformNote(for: platforms) { evidence += " <span class=\"note\">\(HTML.escape(note))</span>" }
            let status = label.notCheckable != nil ? "<span class=\"badge\"><span aria-hidden=\"true\">?</span> Not checkable</span>"
                : !blocking.isEmpty ? "<span class=\"badge badge--failed\"><span aria-hidden=\"true\">\u{2716}</span> Blocked</span>"
                : relevant.isEmpty ? "<span class=\"badge badge--ok\"><span aria-hidden=\"true\">\u{2714}</span> No static blockers</span>"
                : "<span class=\"badge badge--warning\"><span aria-hidden=\"true\">\u{25B2}</span> To check</span>"
            rows.append(["<span id=\"\(Self.labelAnchor(label))\">\(HTML.escape(label.rawValue))</span>", status, evidence])
        }
        return table(caption: caption, headers: [("Label", false), ("Static evidence", false), ("Details", false)], rows: rows, empty: "")
    }

    static let readinessIntroduction = "<p>For each app, what the static evidence says about the nine Accessibility Nutrition Labels. "
        + "This never claims support: a label can be declared only after testing on a device against Apple's evaluation criteria. "
        + "“Blocked” means open requirement-level violations of rules that bear on the label; “to check” means recommendations "
        + "or findings that need review, which block nothing until a person confirms them.</p>"
        + "<p class=\"legend-text\">In the tables: <span aria-hidden=\"true\">\u{2716}</span> N blocking, <span aria-hidden=\"true\">\u{25B2}</span> N to check, "
        + "<span aria-hidden=\"true\">\u{2714}</span> none found, n/a not checkable from source or not offered on the app's platforms.</p>"

    /// Whether a finding blocks a Nutrition Label: a requirement-level violation.
    static func blocks(_ finding: DashboardQueries.Finding) -> Bool { finding.kind == .requirement && finding.certainty == .violation }

    /// The repository page's anchor of a label's row.
    static func labelAnchor(_ label: NutritionLabel) -> String { "label-" + HTML.segment(label.rawValue.lowercased()) }

    /// The apps of one team (or, with `team` nil, of no team) against the labels: one row per app.
    /// Returns how many of them each label has blocked.
    func readinessRows(_ repositories: [DashboardQueries.Repository], team: DashboardQueries.Team?,
                       from path: String) throws -> (rows: [[String]], blocked: [Int]) {
        let labels = NutritionLabel.allCases
        let openByLabel = try queries.openByRepository(
            org: org, teamID: team?.id, ruleGroups: labels.map(\.rules),
            snippetConditions: Dictionary(uniqueKeysWithValues: labels.enumerated().compactMap { $0.element.snippetConditions.isEmpty ? nil : ($0.offset, $0.element.snippetConditions) }))
        var rows: [[String]] = []
        var blocked = Array(repeating: 0, count: labels.count)
        for repository in repositories where repository.active && repository.teamID == team?.id {
            let open = openByLabel[repository.id] ?? [:]
            let page = repositoryPath(repository.id)
            var row = ["<a href=\"\(HTML.escape(HTML.href(from: path, to: page + "#readiness")))\">\(HTML.breakable(repository.name))</a>"]
            for (index, label) in labels.enumerated() {
                if label.notCheckable != nil { row.append("<span class=\"badge\">n/a<span class=\"visually-hidden\">: not checkable</span></span>"); continue }
                if !label.isOffered(on: repository.platforms) {
                    row.append("<span class=\"badge\">n/a<span class=\"visually-hidden\">: not offered on the app's platforms</span></span>"); continue
                }
                let counts = open[index] ?? DashboardQueries.LabelCounts()
                if counts.blocking > 0 { blocked[index] += 1 }
                // Each count links the label's evidence on the app's page.
                let link = HTML.escape(HTML.href(from: path, to: page + "#" + Self.labelAnchor(label)))
                row.append(counts.blocking > 0
                    ? "<a class=\"badge badge--failed\" href=\"\(link)\"><span aria-hidden=\"true\">\u{2716}</span> \(counts.blocking)<span class=\"visually-hidden\"> blocking</span></a>"
                    : counts.other > 0
                    ? "<a class=\"badge badge--warning\" href=\"\(link)\"><span aria-hidden=\"true\">\u{25B2}</span> \(counts.other)<span class=\"visually-hidden\"> to check</span></a>"
                    : "<span class=\"badge badge--ok\"><span aria-hidden=\"true\">\u{2714}</span> none</span>")
            }
            rows.append(row)
        }
        return (rows, blocked)
    }

    func readinessTable(rows: [[String]], caption: String) -> String {
        table(caption: caption, headers: [("App", false)] + NutritionLabel.allCases.map { ($0.rawValue, false) }, rows: rows,
              empty: "No repositories.", compact: true)
    }

    /// A team's apps against the labels; remembers how many each label has blocked for the
    /// organisation's page.
    func renderTeamReadiness(_ team: DashboardQueries.Team, repositories: [DashboardQueries.Repository]) throws {
        let path = Self.teamReadinessPath(team.slug)
        let (rows, blocked) = try readinessRows(repositories, team: team, from: path)
        readinessByTeam[team.id] = (apps: rows.count, blocked: blocked)
        var body = Self.readinessIntroduction
        body += readinessTable(rows: rows, caption: "Static evidence per app of \(team.name) and label")
        body += "<p class=\"note\">\(HTML.escape(NutritionLabel.citation.quote)) (\(HTML.escape(NutritionLabel.citation.source)))</p>"
        try write(path, page(path, title: "\(team.name): Accessibility Nutrition Label readiness",
                             breadcrumbs: [("Overview", "index.html"), ("Readiness", "readiness.html"), ("Team \(team.name)", Self.teamPath(team.slug))], body))
    }

    /// The organisation's page: per team, how many apps each label has blocked, each team's
    /// apps on a page of its own (at 10,000 repositories one table of every app was 12 MB), and
    /// apps that belong to no team listed here.
    func renderReadiness(_ repositories: [DashboardQueries.Repository], teams: [DashboardQueries.Team], changedTeams: Set<Int>?) throws {
        let path = "readiness.html"
        for team in teams where changedTeams?.contains(team.id) ?? true || readinessByTeam[team.id] == nil {
            try renderTeamReadiness(team, repositories: repositories)
        }
        let labels = NutritionLabel.allCases
        var body = Self.readinessIntroduction
        let teamRows = teams.map { team -> [String] in
            let summary = readinessByTeam[team.id] ?? (apps: 0, blocked: Array(repeating: 0, count: labels.count))
            return [anchor(path, Self.teamReadinessPath(team.slug), team.name), HTML.number(summary.apps)]
                + labels.enumerated().map { index, label in
                    label.notCheckable != nil ? "<span class=\"badge\">n/a<span class=\"visually-hidden\">: not checkable</span></span>"
                        : summary.blocked[index] == 0 ? "<span class=\"badge badge--ok\"><span aria-hidden=\"true\">\u{2714}</span> none<span class=\"visually-hidden\"> blocked</span></span>"
                        : "<span class=\"badge badge--failed\"><span aria-hidden=\"true\">\u{2716}</span> \(summary.blocked[index]) of \(summary.apps)<span class=\"visually-hidden\"> blocked</span></span>"
                }
        }
        body += table(caption: "Apps blocked per team and label", headers: [("Team", false), ("Apps", true)] + labels.map { ($0.rawValue, false) },
                      rows: teamRows, empty: "No teams.", compact: true)
        let (unassigned, _) = try readinessRows(repositories, team: nil, from: path)
        if !unassigned.isEmpty {
            body += "<h2>Apps of no team</h2>" + readinessTable(rows: unassigned, caption: "Static evidence per app of no team and label")
        }
        body += "<p class=\"note\">\(HTML.escape(NutritionLabel.citation.quote)) (\(HTML.escape(NutritionLabel.citation.source)))</p>"
        try write(path, page(path, title: "Accessibility Nutrition Label readiness", breadcrumbs: [("Overview", "index.html")], body))
    }

    private func prettyJSON(_ text: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]),
              let pretty = String(data: data, encoding: .utf8) else { return text }
        return pretty
    }
}

// MARK: Pull-request checks

extension SiteRenderer {
    /// One page per checked head commit: new, fixed, and unchanged findings in the files the
    /// pull request changed. The worker links GitHub's status to this path.
    func renderPullRequests(onlyJob jobID: Int? = nil) throws {
        let store = PullRequestStore(connection: queries.connection)
        let checks = try jobID.map { try store.checks(where: "c.job_id = $1", [.int($0)]) } ?? store.checks(limit: 1_000_000)
        for check in checks where check.state != .pending {
            try renderPullRequest(check)
        }
        if jobID == nil || !checks.isEmpty { try renderPullRequestIndex(try store.checks(limit: 1_000_000)) }
    }

    func renderPullRequest(_ check: PullRequestStore.Check) throws {
        let path = PullRequestReport.path(repository: check.repository, prNumber: check.prNumber, headSHA: check.headSHA)
        let results = check.results ?? PullRequestResults()
        func findings(_ items: [PullRequestResults.Item]) -> [DashboardQueries.Finding] {
            items.enumerated().map { index, item in
                DashboardQueries.Finding(id: index, repositoryID: check.repositoryID, repository: check.repository, teamID: nil,
                                         ruleID: item.rule, kind: item.kind, severity: item.severity, path: item.path,
                                         line: item.line, column: item.column, message: item.message, snippet: item.snippet,
                                         sourceLine: item.sourceLine, firstSeenRun: 0, fixedInRun: nil, certainty: item.certainty,
                                         correction: item.correction)
            }
        }
        // A fixed finding has nothing left to fix.
        let new = findings(results.new), fixed = findings(results.fixed).map { finding in
            var finding = finding
            finding.correction = nil
            return finding
        }, unchanged = findings(results.unchangedInChangedFiles)
        var body = "<p>\(Badge.state(check.state == .failure ? "failed" : check.state == .success ? "succeeded" : check.state.rawValue)) "
        body += "\(HTML.escape(results.summary)). Pull request #\(check.prNumber) of "
        body += "\(anchor(path, repositoryPath(check.repositoryID), check.repository)) at <code>\(HTML.escape(String(check.headSHA.prefix(12))))</code>, "
        body += "compared with \(HTML.escape(check.baseRef)) at <code>\(HTML.escape(String(check.baseSHA.prefix(12))))</code>. "
        body += "Gate: \(HTML.escape(Self.gateText(check.gate))).</p>"
        if check.results == nil, check.state == .success || check.state == .failure {
            body += "<p>The findings this check stored cannot be read; the verdict and counts above stand.</p>"
        }
        let changed = results.changedFiles
        body += "<p>\(changed.count) changed \(changed.count == 1 ? "file" : "files"); only findings in them can be new.</p>"
        body += "<section aria-labelledby=\"new\"><h2 id=\"new\">New findings</h2>"
        let head = [check.repositoryID: check.headSHA], base = [check.repositoryID: check.baseSHA]
        body += new.isEmpty ? "<p>None.</p>" : findingList(new, from: path, showRepository: false, commits: head)
        body += "</section><section aria-labelledby=\"fixed\"><h2 id=\"fixed\">Fixed findings</h2>"
        body += fixed.isEmpty ? "<p>None.</p>" : findingList(fixed, from: path, showRepository: false, commits: base)
        body += "</section><section aria-labelledby=\"unchanged\"><h2 id=\"unchanged\">Unchanged findings in the changed files</h2>"
        body += unchanged.isEmpty ? "<p>None.</p>" : findingList(unchanged, from: path, showRepository: false, commits: head)
        body += "</section>"
        try write(path, page(path, title: "\(check.repository) #\(check.prNumber) at \(check.headSHA.prefix(7))",
                             breadcrumbs: [("Overview", "index.html"), ("Pull requests", "pulls/index.html")], body))
    }

    func renderPullRequestIndex(_ checks: [PullRequestStore.Check]) throws {
        let path = "pulls/index.html"
        let rows = checks.reversed().map { check -> [String] in
            let link = check.state == .pending ? HTML.escape("\(check.repository) #\(check.prNumber)")
                : anchor(path, PullRequestReport.path(repository: check.repository, prNumber: check.prNumber, headSHA: check.headSHA),
                         "\(check.repository) #\(check.prNumber)")
            return [link, "<code>\(HTML.escape(String(check.headSHA.prefix(12))))</code>",
                    Badge.state(check.state == .failure ? "failed" : check.state == .success ? "succeeded" : check.state.rawValue),
                    check.newCount.map(HTML.number) ?? "–", check.fixedCount.map(HTML.number) ?? "–"]
        }
        let body = table(caption: "Pull-request checks, newest first", headers: [("Pull request", false), ("Head", false), ("Verdict", false),
                                                                                ("New", true), ("Fixed", true)], rows: rows, empty: "No pull request checked yet.")
        try write(path, page(path, title: "Pull requests", breadcrumbs: [("Overview", "index.html")], body))
    }

    static func gateText(_ gate: PullRequestGate) -> String {
        switch gate {
        case .requirements: "fails on new requirement-level violations"
        case .any: "fails on any new violation"
        case .anyIncludingReview: "fails on any new finding, those that need review included"
        case .never: "reports only"
        }
    }
}
