import AuditModel
import AuditStore
import Dashboard
import DatabaseTestSupport
import Foundation
import OrgModel
import PostgresClient
import Testing

/// A repository with hundreds of open findings: its list comes in pages, and static filter
/// pages narrow it by severity, kind, rule and owner without JavaScript.
@Suite struct FindingPagesTests {
    static let config = OrgConfig(
        org: "acme", teams: [OrgConfig.Team(name: "Mobile"), OrgConfig.Team(name: "Design System")],
        repositories: [OrgConfig.Repository(name: "acme/big-app", team: "Mobile", archive: "https://github.com/acme/big-app/archive/{ref}.tar.gz")])

    /// 230 findings: 120 errors of two rules, 80 warnings of one, 30 to review, the last 40 of
    /// them in files another team owns.
    static func findings(count: Int = 230) -> [Finding] {
        (0..<count).map { index in
            let (rule, kind, severity, certainty): (String, RuleKind, Severity, Certainty) =
                index < 120 ? (index % 2 == 0 ? "fixed-font-size" : "ib-fixed-font", .requirement, .error, .violation)
                : index < 200 ? ("image-asset-name-spoken", .recommendation, .warning, .violation)
                : ("heading-missing-trait", .recommendation, .note, .review)
            return Finding(ruleID: rule, kind: kind, severity: severity, certainty: certainty,
                           location: SourceLocation(file: "Sources/\(index >= count - 40 ? "Design" : "App")/File\(index / 10).swift", line: index % 10 + 1, column: 5),
                           message: "finding \(index)", fix: "", citation: Citation("HIG", ""), platforms: PlatformSet(.iOS),
                           snippet: "code \(index)")
        }
    }

    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func aLongListComesInPagesWithFilterPagesBesideIt() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            try OrgStore(connection: connection).sync(Self.config)
            let design = try #require(try connection.query("SELECT id FROM teams WHERE name = 'Design System'", purpose: "read").first?.int("id"))
            _ = try scheduleRun(connection, Self.config, "2026-11-28")
            try auditQueuedJobs(connection) { _ in Self.findings() }
            // CODEOWNERS gives the last 40 to Design System.
            try connection.query("UPDATE findings SET team_id = $1 WHERE path LIKE 'Sources/Design/%'", [.int(design)], purpose: "own")
            let site = try RenderedSite()
            _ = try render(connection, into: site)

            let main = try site.html("repos/acme/big-app.html")
            #expect(count("<li class=\"finding\"", in: main) == SiteRenderer.findingsPerPage)
            #expect(main.contains("Findings 1–200 of 230, page 1 of 2."))
            #expect(main.contains("rel=\"next\" href=\"../../repos/acme/big-app.findings/page-2.html\""))
            let second = try site.html("repos/acme/big-app.findings/page-2.html")
            #expect(count("<li class=\"finding\"", in: second) == 30)
            #expect(second.contains("Findings 201–230 of 230, page 2 of 2.") && second.contains("rel=\"prev\" href=\"../../../repos/acme/big-app.html\""))
            // Errors first: page 1 starts with them and what needs review is on page 2.
            #expect(main.components(separatedBy: "finding-section--error").count > 1 && !main.contains("finding-section--review"))
            #expect(second.contains("finding-section--review"))

            // Filters: a link per severity, kind, rule and owner with its count; each page lists exactly those.
            let expected: [(String, Int)] = [("severity-error", 120), ("severity-warning", 80), ("needs-review", 30),
                                             ("kind-recommendation", 110),
                                             ("rule-fixed-font-size", 60), ("rule-ib-fixed-font", 60),
                                             ("owner-\(design)-design-system", 40)]
            for (slug, n) in expected {
                #expect(main.contains("href=\"../../repos/acme/big-app.findings/\(slug).html\""), "\(slug) linked")
                let filtered = try site.html("repos/acme/big-app.findings/\(slug).html")
                #expect(count("<li class=\"finding\"", in: filtered) == min(n, SiteRenderer.findingsPerPage), "\(slug) lists its findings")
                #expect(filtered.contains("aria-current=\"page\""), "\(slug) marks itself")
            }
            // The requirements are exactly the errors, one rule exactly the warnings: one page for both links.
            #expect(main.contains(">Requirement</a> <span class=\"count\">(120)</span>") && !main.contains("kind-requirement.html"))
            #expect(main.components(separatedBy: "big-app.findings/severity-error.html\"").count == 3, "Errors and Requirement link one page")
            #expect(main.components(separatedBy: "big-app.findings/severity-warning.html\"").count == 3 && !main.contains("rule-image-asset-name-spoken.html"))
            let mobileSlug = try #require(attributes("href", in: main).first { $0.contains("/owner-") && !$0.contains("design-system") })
            #expect(count("<li class=\"finding\"", in: try site.html(mobileSlug.replacingOccurrences(of: "../../", with: ""))) == 190)
            #expect(!main.contains("severity-note.html"), "no filter that keeps nothing")

            // One owner for all: no owner filter (its page would repeat the whole list).
            try connection.query("UPDATE findings SET team_id = (SELECT team_id FROM repositories LIMIT 1)", purpose: "one owner")
            _ = try render(connection, into: site)
            let oneOwner = try site.html("repos/acme/big-app.html")
            #expect(oneOwner.contains("rule-fixed-font-size.html") && !oneOwner.contains("/owner-"))
            #expect(!FileManager.default.fileExists(atPath: site.root + "/repos/acme/big-app.findings/owner-\(design)-design-system.html"))

            // The next night has 60 findings: no pages and no filters, and the old views are gone.
            _ = try scheduleRun(connection, Self.config, "2026-11-29")
            try auditQueuedJobs(connection) { _ in Array(Self.findings().prefix(60)) }
            _ = try render(connection, into: site)
            let short = try site.html("repos/acme/big-app.html")
            #expect(count("<li class=\"finding\"", in: short) == 60 && !short.contains("finding-filters") && !short.contains("rel=\"next\""))
            let left = (try? FileManager.default.contentsOfDirectory(atPath: site.root + "/repos/acme/big-app.findings")) ?? []
            #expect(left.filter { $0.hasSuffix(".html") }.isEmpty, "stale views removed: \(left)")
        }
    }
}
