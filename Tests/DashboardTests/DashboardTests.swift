import AuditModel
import AuditStore
import Dashboard
import DatabaseTestSupport
import Foundation
import HistorySimulation
import PostgresClient
import SwiftChecks
import Testing

/// The rendered site of a generated history, checked page by page.
final class RenderedSite {
    let root: String
    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-site-\(UUID().uuidString.prefix(8))").path
    }
    deinit { try? FileManager.default.removeItem(atPath: root) }

    var pages: [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".html") }.sorted()
    }

    /// The CSV and JSON exports beside the pages.
    var exports: [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".csv") || $0.hasSuffix(".json") }.sorted()
    }

    func html(_ path: String) throws -> String { try String(contentsOfFile: root + "/" + path, encoding: .utf8) }
}

let webDirectory = TestDatabase.repositoryRoot + "/Web"

func render(_ connection: PostgresConnection, into site: RenderedSite) throws -> (SiteRenderer, RenderSummary) {
    let renderer = try SiteRenderer(connection: connection, output: site.root, webDirectory: webDirectory)
    return (renderer, try renderer.renderAll())
}

/// All `href="…"` and `id="…"` values of a page.
func attributes(_ name: String, in html: String) -> [String] {
    var values: [String] = []
    var rest = html[...]
    let marker = " \(name)=\""
    while let start = rest.range(of: marker) {
        let after = rest[start.upperBound...]
        guard let end = after.firstIndex(of: "\"") else { break }
        values.append(String(after[..<end]))
        rest = after[end...]
    }
    return values
}

func count(_ needle: String, in html: String) -> Int { html.components(separatedBy: needle).count - 1 }

@Suite(.serialized) struct DashboardTests {
    @Test func everyPageKindRendersAndItsNumbersMatchTheDatabase() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let history = FixtureHistory()
            let runs = try history.write(to: connection)
            let site = try RenderedSite()
            let (_, summary) = try render(connection, into: site)
            let pages = site.pages
            #expect(summary.written == pages.count + site.exports.count + SiteRenderer.stylesheets.count + SiteRenderer.scripts.count, "pages, their exports, the stylesheet and the script")
            // A CSV and a JSON beside each repository page, each team page, and each regression
            // report and run page of the newest runs.
            #expect(site.exports.count == 2 * (12 + 3 + 4 * SiteRenderer.jobPageRuns))
            // The newest run's export holds its new and fixed findings, every team's.
            let newest = runs[runs.count - 1]
            let changed = try #require(try connection.query("""
                SELECT count(*) FILTER (WHERE first_seen_run = $1 AND NOT baseline) + count(*) FILTER (WHERE fixed_in_run = $1) AS n FROM findings
                """, [.int(newest)], purpose: "read").first?.int("n"))
            let runExport = try #require(try JSONSerialization.jsonObject(with: Data(try site.html("runs/\(newest).json").utf8)) as? [[String: Any]])
            #expect(changed > 0 && runExport.count == changed)
            #expect(Set(runExport.compactMap { $0["change"] as? String }).isSubset(of: ["new", "fixed"]))
            #expect(site.exports.contains("teams/payments/regressions/run-\(runs[runs.count - 1]).json"))
            #expect(!site.exports.contains("teams/payments/regressions/run-\(runs[0]).json"))
            let exportedReport = try JSONSerialization.jsonObject(with: Data(try site.html("teams/payments/regressions/run-\(runs[runs.count - 1]).json").utf8))
            #expect((exportedReport as? [[String: Any]])?.allSatisfy { ["new", "fixed"].contains($0["change"] as? String ?? "") } == true)
            for expected in ["index.html", "runs/index.html", "rules/index.html", "readiness.html", "teams/payments/index.html",
                             "teams/design-system/index.html", "teams/growth-retention/index.html",
                             "teams/payments/regressions/run-\(runs[0]).html",
                             "teams/payments/regressions/run-\(runs[29]).html", "repos/fixture/app-0.html",
                             "runs/\(runs[0]).html", "rules/fixed-font-size.html"] {
                #expect(pages.contains(expected), "missing \(expected)")
            }
            #expect(pages.filter { $0.hasPrefix("teams/payments/regressions/") }.count == 30, "one report per run")
            #expect(pages.filter { $0.hasPrefix("repos/") }.count == 12)

            // The overview's team table says what the database says.
            let overview = try site.html("index.html")
            for row in try connection.query("""
                SELECT t.name, count(f.id) FILTER (WHERE f.kind = 'requirement') AS requirements, count(f.id) AS total
                FROM teams t LEFT JOIN findings f ON f.team_id = t.id AND f.fixed_in_run IS NULL GROUP BY t.name
                """, purpose: "read") {
                let name = HTMLEscaped(row.string("name") ?? "")
                let expected = "\(name)</a></th><td role=\"cell\" data-label=\"Open requirements\" class=\"number\">\(row.int("requirements") ?? -1)</td>"
                    + "<td role=\"cell\" data-label=\"Open findings\" class=\"number\">\(row.int("total") ?? -1)</td>"
                #expect(overview.contains(expected), "team row for \(name)")
            }
            // The last run shows its dead job and the reason.
            #expect(overview.contains("11 of 12 repositories audited, 1 failed"))
            #expect(overview.contains("HTTP 404 from the archive host"))

            // A team page's regression report lists exactly the new findings of the last run.
            let payments = try #require(try connection.query("SELECT id FROM teams WHERE name = 'Payments'", purpose: "read").first?.int("id"))
            let newCount = try #require(try connection.query("SELECT count(*) AS n FROM findings WHERE team_id = $1 AND first_seen_run = $2 AND NOT baseline",
                                                             [.int(payments), .int(runs[runs.count - 1])], purpose: "read").first?.int("n"))
            let report = try site.html("teams/payments/regressions/run-\(runs[runs.count - 1]).html")
            #expect(count("<li class=\"finding\"", in: report.components(separatedBy: "<h2 id=\"fixed\">")[0]) == newCount)

            // The repository page lists its open findings.
            let open = try #require(try connection.query("""
                SELECT count(*) AS n FROM findings f JOIN repositories r ON r.id = f.repository_id
                WHERE r.name = 'fixture/app-0' AND f.fixed_in_run IS NULL
                """, purpose: "read").first?.int("n"))
            let repository = try site.html("repos/fixture/app-0.html")
            #expect(count("<li class=\"finding\"", in: repository) == open)
            // Its exports hold the same findings: a header and a CRLF-ended row each, and a JSON array.
            let csv = try site.html("repos/fixture/app-0.csv")
            #expect(csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == open + 1)
            #expect(csv.hasPrefix("\"change\",\"repository\",\"path\",\"line\""))
            let json = try JSONSerialization.jsonObject(with: Data(try site.html("repos/fixture/app-0.json").utf8)) as? [[String: Any]]
            #expect(json?.count == open && json?.allSatisfy { $0["change"] as? String == "open" && $0["line"] is Int } == true)
            #expect(repository.contains("href=\"../../repos/fixture/app-0.csv\"") && repository.contains("href=\"../../repos/fixture/app-0.json\""))
            #expect(repository.contains("findings suppressed inline"))
            // The team's page exports the team's open findings wherever they are, each linked at
            // its repository's audited commit where the forge is known.
            let teamOpen = try #require(try connection.query("""
                SELECT count(*) AS n FROM findings f JOIN repositories r ON r.id = f.repository_id AND r.active
                WHERE f.team_id = $1 AND f.fixed_in_run IS NULL
                """, [.int(payments)], purpose: "read").first?.int("n"))
            let teamJSON = try #require(try JSONSerialization.jsonObject(with: Data(try site.html("teams/payments/index.json").utf8)) as? [[String: Any]])
            #expect(teamOpen > 0 && teamJSON.count == teamOpen)
            #expect(Set(teamJSON.compactMap { $0["change"] as? String }) == ["open"])
            #expect(try site.html("teams/payments/index.csv").components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == teamOpen + 1)
            #expect(try site.html("teams/payments/index.html").contains("href=\"../../teams/payments/index.csv\""))

            // A rule's page says where its open findings are, per team as the database counts them, and charts its trend.
            let rule = try site.html("rules/fixed-font-size.html").replacingOccurrences(of: "<wbr>", with: "")
            #expect(rule.contains("Where they are") && rule.contains("id=\"rule-trend-title\""))
            for row in try connection.query("""
                SELECT t.name, count(*) AS n FROM findings f JOIN teams t ON t.id = f.team_id
                WHERE f.rule_id = 'fixed-font-size' AND f.fixed_in_run IS NULL GROUP BY t.name
                """, purpose: "read") {
                #expect(rule.contains(">\(HTMLEscaped(row.string("name") ?? ""))</a></th><td role=\"cell\" data-label=\"Open findings\" class=\"number\">\(row.int("n") ?? -1)</td>"),
                        "team \(row.string("name") ?? "") on the rule page")
            }
        }
    }

    @Test func jobPagesAreKeptForRecentRunsFailuresAndEachRepositorysLastAudit() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let runs = try FixtureHistory().write(to: connection)
            // The dead job of the last night is retried as a failure in an old run too.
            let oldFailure = try #require(try connection.query("""
                UPDATE jobs SET state = 'dead', last_error = 'HTTP 500' WHERE id = (SELECT min(id) FROM jobs WHERE run_id = $1) RETURNING id
                """, [.int(runs[0])], purpose: "fail an old job").first?.int("id"))
            let site = try RenderedSite()
            _ = try render(connection, into: site)
            let jobPages = Set(site.pages.filter { $0.hasPrefix("jobs/") })
            let recent = Set(runs.suffix(SiteRenderer.jobPageRuns))
            var expected = Set<String>()
            for row in try connection.query("SELECT id, run_id, state FROM jobs", purpose: "read") {
                guard let id = row.int("id"), let run = row.int("run_id") else { continue }
                if recent.contains(run) || row.string("state") != "succeeded" { expected.insert("jobs/\(id).html") }
            }
            #expect(expected.isSubset(of: jobPages), "missing \(expected.subtracting(jobPages).sorted().prefix(5))")
            #expect(jobPages.contains("jobs/\(oldFailure).html"))
            // Nothing else but each repository's last audit (here all in recent runs) has a page.
            #expect(jobPages == expected)
            // An old run's pages (the run's and its teams') name its succeeded jobs without linking
            // them, and link the failure.
            let oldRunPages = site.pages.filter { $0 == "runs/\(runs[0]).html" || $0.hasPrefix("runs/\(runs[0])/") }
            #expect(oldRunPages.count == 4, "the run's page and one per team: \(oldRunPages)")
            let oldRun = try oldRunPages.map { try site.html($0) }.joined()
            #expect(Set(attributes("href", in: oldRun).filter { $0.contains("jobs/") }.map { $0.replacingOccurrences(of: "../", with: "") })
                    == ["jobs/\(oldFailure).html"])
            #expect((0..<12).allSatisfy { oldRun.contains("fixture/<wbr>app-<wbr>\($0)<") })
            // A repository audited only long ago keeps its last audit's page.
            try connection.query("DELETE FROM jobs WHERE repository_id = (SELECT id FROM repositories WHERE name = 'fixture/app-3') AND run_id <> $1",
                                 [.int(runs[0])], purpose: "leave app-3 with one old audit")
            let lastAudit = try #require(try connection.query("""
                SELECT j.id FROM jobs j JOIN repositories p ON p.id = j.repository_id WHERE p.name = 'fixture/app-3' AND j.state = 'succeeded'
                """, purpose: "read").first?.int("id"))
            let again = try RenderedSite()
            _ = try render(connection, into: again)
            #expect(again.pages.contains("jobs/\(lastAudit).html"))
            #expect(try again.pages.filter { $0.hasPrefix("runs/\(runs[0])/") }.map { try again.html($0) }.joined()
                        .contains("jobs/\(lastAudit).html"))
        }
    }

    @Test func readinessIsAPagePerTeamAndTheOrganisationPageCountsBlockedApps() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            try FixtureHistory().write(to: connection)
            let site = try RenderedSite()
            _ = try render(connection, into: site)
            let organisation = try site.html("readiness.html")
            for team in try connection.query("SELECT id, slug FROM teams ORDER BY id", purpose: "read") {
                let slug = team.string("slug") ?? ""
                #expect(site.pages.contains("teams/\(slug)/readiness.html"))
                #expect(organisation.contains("href=\"teams/\(slug)/readiness.html\""))
                #expect(try site.html("teams/\(slug)/index.html").contains("href=\"../../teams/\(slug)/readiness.html\""), "the team page links its readiness")
            }
            // For every team and checkable label: apps with an open requirement-level violation of
            // the label's rules, as the database says (a recommendation or a finding that needs
            // review is for a person to check: it blocks nothing).
            var someNotBlocking = false
            for (index, label) in NutritionLabel.allCases.enumerated() where label.notCheckable == nil {
                for team in try connection.query("""
                    SELECT t.id, t.name, count(DISTINCT p.id) AS apps,
                           count(DISTINCT p.id) FILTER (WHERE EXISTS (SELECT 1 FROM findings f WHERE f.repository_id = p.id
                                                          AND f.fixed_in_run IS NULL AND f.rule_id = ANY($1)
                                                          AND f.kind = 'requirement' AND f.certainty = 'violation')) AS blocked,
                           count(DISTINCT p.id) FILTER (WHERE EXISTS (SELECT 1 FROM findings f WHERE f.repository_id = p.id
                                                          AND f.fixed_in_run IS NULL AND f.rule_id = ANY($1))) AS with_findings
                    FROM teams t JOIN repositories p ON p.team_id = t.id AND p.active GROUP BY t.id, t.name
                    """, [.textArray(label.rules)], purpose: "count blocked apps") {
                    let blocked = team.int("blocked") ?? -1, apps = team.int("apps") ?? -1
                    if (team.int("with_findings") ?? 0) > blocked { someNotBlocking = true }
                    let cells = organisation.components(separatedBy: ">\(HTMLEscaped(team.string("name") ?? ""))</a>")
                    try #require(cells.count == 2, "one row for \(team.string("name") ?? "")")
                    let row = cells[1].components(separatedBy: "</tr>")[0]
                    let cell = row.components(separatedBy: "data-label=\"\(label.rawValue)\"")
                    try #require(cell.count == 2, "a \(label.rawValue) cell in \(row)")
                    let text = cell[1].components(separatedBy: "</td>")[0]
                    #expect(blocked == 0 ? text.contains("none<span class=\"visually-hidden\"> blocked</span>")
                                        : text.contains("\(blocked) of \(apps)<span class=\"visually-hidden\"> blocked</span>"),
                            "\(label.rawValue) of \(team.string("name") ?? ""): \(text), expected \(blocked) of \(apps) (label \(index))")
                }
            }
            #expect(someNotBlocking, "the history has apps whose findings for a label are only recommendations")
            // A team's cells link each count to the label's evidence on the app's page.
            let payments = try site.html("teams/payments/readiness.html")
            #expect(payments.contains("to check</span></a>") && payments.contains("blocking</span></a>"))
            let linked = attributes("href", in: payments).filter { $0.contains("#label-") }
            try #require(!linked.isEmpty)
            for href in Set(linked) {
                let parts = href.replacingOccurrences(of: "../../", with: "").split(separator: "#").map(String.init)
                #expect(try site.html(parts[0]).contains("id=\"\(parts[1])\""), "\(href) points at a label row")
            }
        }
    }

    @Test func userDataIsEscapedEverywhere() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            var history = FixtureHistory(teams: 1, repositories: 2, nights: 2)
            history.planted = [FixtureHistory.finding(FixtureHistory.rules[1], file: "App/<script>alert(1)</script>.swift", line: 3,
                                                      code: "\"><img src=x onerror=alert(1)>",
                                                      message: "label \"<script>alert('x')</script>\" is a raw identifier")]
            try history.write(to: connection)
            let site = try RenderedSite()
            _ = try render(connection, into: site)
            var sawPlanted = false
            for page in site.pages {
                let html = try site.html(page)
                // The one script is the same-origin filter, in the head, before any user data.
                let depth = String(repeating: "../", count: page.filter { $0 == "/" }.count)
                let ownScript = "<script src=\"\(depth)assets/filters.js\" defer></script>"
                #expect(html.components(separatedBy: ownScript).count == 2, "\(page) loads filters.js once")
                #expect(!html.replacingOccurrences(of: ownScript, with: "").contains("<script"), "\(page) contains a script tag")
                #expect(!html.contains("<img"), "\(page) contains an img tag")
                // Names and paths carry <wbr> break opportunities (after "/" and "."), the text is the same.
                let text = html.replacingOccurrences(of: "<wbr>", with: "")
                if text.contains("&lt;script&gt;alert(1)&lt;/script&gt;.swift") && text.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;") {
                    sawPlanted = true
                }
            }
            #expect(sawPlanted, "the planted finding is shown, escaped")
            // In the CSV export a quote in a field is doubled and the field quoted.
            let exported = try site.exports.filter { $0.hasSuffix(".csv") }.map { try site.html($0) }.joined()
            #expect(exported.contains("\"label \"\"<script>alert('x')</script>\"\" is a raw identifier\""))
        }
    }

    @Test func noInternalLinkIsBrokenAndPagesAreWellFormed() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            try FixtureHistory(teams: 3, repositories: 6, nights: 5).write(to: connection)
            let site = try RenderedSite()
            _ = try render(connection, into: site)
            var checked = 0
            for page in site.pages {
                let html = try site.html(page)
                #expect(count("<h1>", in: html) == 1, "\(page): one h1")
                #expect(html.contains("<html lang=\"en\">") && html.contains("<main id=\"main\">") && html.contains("href=\"#main\""))
                #expect(count("<table", in: html) == count("<caption>", in: html), "\(page): every table has a caption")
                let ids = Set(attributes("id", in: html))
                for href in attributes("href", in: html) {
                    let (target, fragment) = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                        .map(String.init).splitPair()
                    if target.isEmpty {
                        #expect(ids.contains(fragment ?? ""), "\(page): #\(fragment ?? "") has no target")
                        continue
                    }
                    #expect(!target.hasPrefix("/") && !target.contains("://"), "\(page): \(href) is not relative")
                    let resolved = URL(fileURLWithPath: site.root + "/" + page).deletingLastPathComponent().appendingPathComponent(target).standardized.path
                    #expect(resolved.hasPrefix(site.root), "\(page): \(href) leaves the site")
                    #expect(FileManager.default.fileExists(atPath: resolved), "\(page): broken link \(href)")
                    if let fragment, resolved.hasSuffix(".html") {
                        let targetHTML = try String(contentsOfFile: resolved, encoding: .utf8)
                        #expect(attributes("id", in: targetHTML).contains(fragment), "\(page): \(href) fragment missing")
                    }
                    checked += 1
                }
            }
            #expect(checked > 500)
            let leftovers = (FileManager.default.enumerator(atPath: site.root)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".tmp") }
            #expect(leftovers.isEmpty)
        }
    }

    @Test func aFinishedJobReRendersOnlyThePagesItChanges() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let history = FixtureHistory(teams: 3, repositories: 6, nights: 4)
            try history.write(to: connection)
            let site = try RenderedSite()
            let (renderer, full) = try render(connection, into: site)
            #expect(try renderer.renderAll().written == 0, "a second full render writes nothing: nothing changed")
            let before = Dictionary(uniqueKeysWithValues: try site.pages.map { ($0, try site.html($0)) })

            // A manual audit of one repository finds a new problem.
            let repository = try #require(try connection.query("SELECT id FROM repositories WHERE name = 'fixture/app-1'", purpose: "read").first?.int("id"))
            let queue = JobQueue(connection: connection)
            let run = try #require(try connection.query("""
                INSERT INTO runs (org, kind, run_date) VALUES ('fixture', 'manual', '2026-12-31') RETURNING id
                """, purpose: "add a manual run").first?.int("id"))
            _ = try queue.enqueue(JobRequest(runID: run, repositoryID: repository, kind: .manual, commitRef: "main", archiveURL: "file:///x"))
            let job = try #require(try queue.claim(worker: "w"))
            let team = try connection.query("SELECT team_id FROM repositories WHERE id = $1", [.int(repository)], purpose: "read").first?.int("team_id")
            var findings = history.findings(repository: 1, night: 3)
            findings.append(FixtureHistory.finding(FixtureHistory.rules[0], file: "App/New.swift", line: 1, code: "brand-new"))
            findings.assignFingerprints()
            _ = try queue.complete(job) {
                try HistoryWriter(connection: $0).write(JobResults(findings: findings.map { .init(finding: $0, teamID: team) },
                                                                   filesScanned: 1, filesParsed: 1, cacheHits: 0), for: job)
            }
            let incremental = try renderer.renderAfterJob(job.id)
            #expect(incremental.written > 0 && incremental.written < full.written / 4, "\(incremental.written) of \(full.written)")
            #expect(site.pages.contains("jobs/\(job.id).html"))
            let after = Dictionary(uniqueKeysWithValues: try site.pages.map { ($0, try site.html($0)) })
            #expect(after["repos/fixture/app-1.html"] != before["repos/fixture/app-1.html"], "the audited repository's page changed")
            #expect(after["repos/fixture/app-1.html"]?.contains("brand-new") == true)
            #expect(after["repos/fixture/app-2.html"] == before["repos/fixture/app-2.html"], "other repositories are left alone")
            // What the incremental render produced equals what a full render produces.
            let fresh = try RenderedSite()
            _ = try render(connection, into: fresh)
            for page in ["index.html", "repos/fixture/app-1.html", "jobs/\(job.id).html"] {
                #expect(try fresh.html(page) == after[page], "\(page) differs from a full render")
            }
        }
    }

    @Test func jobsFinishingTogetherAreRenderedInOneBatchThatEqualsAFullRender() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let history = FixtureHistory(teams: 3, repositories: 6, nights: 4)
            try history.write(to: connection)
            let site = try RenderedSite()
            let (renderer, _) = try render(connection, into: site)
            let before = Dictionary(uniqueKeysWithValues: try site.pages.map { ($0, try site.html($0)) })

            // Tonight's run: app-1 (one team) and app-2 (another) each find a new problem.
            let run = try #require(try connection.query("""
                INSERT INTO runs (org, kind, run_date) VALUES ('fixture', 'nightly', '2026-12-31') RETURNING id
                """, purpose: "add a night").first?.int("id"))
            let queue = JobQueue(connection: connection)
            var jobs: [Int] = []
            for index in [1, 2] {
                let repository = try #require(try connection.query("SELECT id, team_id FROM repositories WHERE name = $1",
                                                                   [.text("fixture/app-\(index)")], purpose: "read").first)
                _ = try queue.enqueue(JobRequest(runID: run, repositoryID: repository.int("id") ?? 0, kind: .nightly, commitRef: "main",
                                                 archiveURL: "file:///x"))
                let job = try #require(try queue.claim(worker: "w"))
                var findings = history.findings(repository: index, night: 3)
                findings.append(FixtureHistory.finding(FixtureHistory.rules[0], file: "App/New\(index).swift", line: 1, code: "batch-\(index)"))
                findings.assignFingerprints()
                _ = try queue.complete(job) {
                    try HistoryWriter(connection: $0).write(JobResults(findings: findings.map { .init(finding: $0, teamID: repository.int("team_id")) },
                                                                       filesScanned: 1, filesParsed: 1, cacheHits: 0), for: job)
                }
                jobs.append(job.id)
            }
            let batch = try renderer.renderAfterJobs(jobs)
            #expect(batch.written > 0)
            let after = Dictionary(uniqueKeysWithValues: try site.pages.map { ($0, try site.html($0)) })
            #expect(after["repos/fixture/app-1.html"]?.contains("batch-1") == true)
            #expect(after["repos/fixture/app-2.html"]?.contains("batch-2") == true)
            #expect(after["repos/fixture/app-3.html"] == before["repos/fixture/app-3.html"], "other repositories are left alone")
            // Every page the batch wrote is what a full render writes, and a full render after it has nothing left to write.
            let fresh = try RenderedSite()
            _ = try render(connection, into: fresh)
            for (page, html) in after where html != before[page] {
                #expect(try fresh.html(page) == html, "\(page) differs from a full render")
            }
            let stale = try fresh.pages.filter { try fresh.html($0) != after[$0] }
            #expect(stale.isEmpty, "pages a full render writes differently: \(stale)")
            #expect(try renderer.renderAll().written == 0, "the batch left nothing stale")
        }
    }

    @Test func aParallelRenderWritesExactlyTheSiteASerialRenderWrites() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let runs = try FixtureHistory(teams: 3, repositories: 9, nights: 10).write(to: connection)
            // An old run's failure and a repository whose last audit is in an old run: the pages
            // that depend on what another unit rendered first.
            try connection.query("UPDATE jobs SET state = 'dead', last_error = 'HTTP 500' WHERE id = (SELECT min(id) FROM jobs WHERE run_id = $1)",
                                 [.int(runs[0])], purpose: "fail an old job")
            try connection.query("""
                UPDATE jobs SET state = 'dead', last_error = 'gone' WHERE repository_id = (SELECT min(id) FROM repositories)
                  AND run_id = ANY($1::bigint[])
                """, [.intArray(Array(runs.suffix(SiteRenderer.jobPageRuns + 1)))], purpose: "leave a repository's last audit in an old run")
            let serial = try RenderedSite()
            let serialSummary = try SiteRenderer(connection: connection, output: serial.root, webDirectory: webDirectory).renderAll()
            let parallel = try RenderedSite()
            let parallelSummary = try SiteRenderer(settings: database.settings, output: parallel.root, webDirectory: webDirectory, workers: 3).renderAll()
            #expect(parallelSummary == serialSummary)
            #expect(parallel.pages == serial.pages)
            let differing = try serial.pages.filter { try serial.html($0) != parallel.html($0) }
            #expect(differing.isEmpty, "pages that differ: \(differing.prefix(5))")
            #expect(serial.pages.count > 100)
        }
    }
}

func HTMLEscaped(_ text: String) -> String { HTML.escape(text) }

extension Array where Element == String {
    func splitPair() -> (String, String?) { (self.first ?? "", self.count > 1 ? self[1] : nil) }
}

@Suite(.serialized) struct LiveRendererTests {
    /// `serve --render`: a job finishing (NOTIFY on a11y_audit_done) re-renders its pages.
    @Test func aFinishedJobReachesTheSiteWithoutARestart() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let history = FixtureHistory(teams: 2, repositories: 3, nights: 2)
            try history.write(to: connection)
            let site = try RenderedSite()
            let live = LiveRenderer(settings: database.settings, output: site.root, webDirectory: webDirectory) { _ in }
            let finished = DispatchSemaphore(value: 0)
            Thread { live.run(); finished.signal() }.start()
            defer { live.stop(); _ = finished.wait(timeout: .now() + 10) }
            func waitFor(_ condition: () -> Bool) -> Bool {
                for _ in 0..<200 { if condition() { return true }; Thread.sleep(forTimeInterval: 0.05) }
                return false
            }
            #expect(waitFor { FileManager.default.fileExists(atPath: site.root + "/index.html") }, "the first whole render")

            let repository = try #require(try connection.query("SELECT id, team_id FROM repositories WHERE name = 'fixture/app-2'", purpose: "read").first)
            let run = try #require(try connection.query("INSERT INTO runs (org, kind, run_date) VALUES ('fixture', 'manual', '2026-12-31') RETURNING id",
                                                        purpose: "add a run").first?.int("id"))
            let queue = JobQueue(connection: connection)
            _ = try queue.enqueue(JobRequest(runID: run, repositoryID: repository.int("id") ?? 0, kind: .manual, commitRef: "main", archiveURL: "file:///x"))
            let job = try #require(try queue.claim(worker: "w"))
            var findings = history.findings(repository: 2, night: 2)
            findings.append(FixtureHistory.finding(FixtureHistory.rules[2], file: "App/Live.swift", line: 5, code: "live-update"))
            findings.assignFingerprints()
            _ = try queue.complete(job) {
                try HistoryWriter(connection: $0).write(JobResults(findings: findings.map { .init(finding: $0, teamID: repository.int("team_id")) },
                                                                   filesScanned: 1, filesParsed: 1, cacheHits: 0), for: job)
            }
            #expect(waitFor { (try? site.html("repos/fixture/app-2.html"))?.contains("live-update") == true },
                    "the repository page shows the new finding")
            #expect(waitFor { FileManager.default.fileExists(atPath: site.root + "/jobs/\(job.id).html") })
        }
    }
}
