import AuditModel
import AuditStore
import Dashboard
import DatabaseTestSupport
import Foundation
import OrgModel
import PostgresClient
import SwiftChecks
import Testing

/// The questions people open the dashboard for, on a small organisation through the real write
/// path: three teams, eight repositories, a first night, a second night that introduces three
/// findings and fixes two, and a manual run on the same day.
@Suite struct RegressionScenarioTests {
    static let config: OrgConfig = {
        let teams: [(String, [String])] = [("Payments", ["pay-api", "pay-ui", "pay-kit"]), ("Growth", ["grow-feed", "grow-onboarding", "grow-ads"]),
                                           ("Design System", ["ds-components", "ds-icons"])]
        return OrgConfig(org: "acme", teams: teams.map { OrgConfig.Team(name: $0.0) },
                         repositories: teams.flatMap { team in
                             team.1.map { OrgConfig.Repository(name: "acme/\($0)", team: team.0, archive: "https://github.com/acme/\($0)/archive/{ref}.tar.gz") }
                         })
    }()

    static func finding(_ rule: String, kind: RuleKind, _ severity: Severity, _ file: String, line: Int, _ code: String) -> Finding {
        Finding(ruleID: rule, kind: kind, severity: severity, location: SourceLocation(file: file, line: line, column: 9),
                message: "\(rule): `\(code)`", fix: "", citation: Citation("HIG", ""), platforms: PlatformSet(.iOS), snippet: code,
                sourceLine: "        " + code)
    }

    /// Every repository's first-night findings: a requirement-level error and a recommendation;
    /// pay-kit also has a file with two identical fixed-size lines, as the scanner reports them.
    static func base(_ repository: String) -> [Finding] {
        [finding("fixed-font-size", kind: .requirement, .error, "Sources/\(repository)/Title.swift", line: 4, ".font(.system(size: 14))"),
         finding("image-asset-name-spoken", kind: .recommendation, .warning, "Sources/\(repository)/Icon.swift", line: 8, "Image(\"ic_close\")")]
            + (repository == "pay-kit" ? scanned(twins) : [])
    }

    static let twins = """
        import SwiftUI

        struct Receipt: View {
            var body: some View {
                VStack {
                    Text("Total").font(.system(size: 12))
                    Divider()
                    Text("Total").font(.system(size: 12))
                }
            }
        }
        """

    static func scanned(_ source: String) -> [Finding] {
        SourceChecker().check(path: "Sources/pay-kit/Receipt.swift", source: source, context: ProjectContext()).findings
            .filter { $0.ruleID == "fixed-font-size" }
    }

    /// Night 2: Growth adds a requirement-level error and fixes a warning (net ±0); Payments adds
    /// a warning and fixes an error; Design System adds a note.
    static func nightTwo(_ repository: String) -> [Finding] {
        var findings = base(repository)
        switch repository {
        case "grow-feed": findings.append(finding("fixed-font-size", kind: .requirement, .error, "Sources/grow-feed/Feed.swift", line: 30, ".font(.system(size: 11))"))
        case "grow-onboarding": findings.removeLast()
        case "pay-api": findings.append(finding("image-asset-name-spoken", kind: .recommendation, .warning, "Sources/pay-api/Card.swift", line: 12, "Image(\"card_bg\")"))
        case "pay-ui": findings.removeFirst()
        case "ds-components": findings.append(finding("hstack-never-restacks", kind: .advisory, .note, "Sources/ds-components/Row.swift", line: 5, "HStack {"))
        default: break
        }
        return findings
    }

    func audit(_ connection: PostgresConnection, _ findings: (String) -> [Finding]) throws {
        try auditQueuedJobs(connection, findings)
    }

    func schedule(_ connection: PostgresConnection, _ date: String, kind: JobKind = .nightly) throws -> Int {
        try scheduleRun(connection, Self.config, date, kind: kind)
    }

    @Test func theOverviewRanksWhoIntroducedRequirementsFirstAndEachRunKeepsItsOwnReport() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            try OrgStore(connection: connection).sync(Self.config)
            let site = try RenderedSite()
            let renderer = try SiteRenderer(connection: connection, output: site.root, webDirectory: webDirectory)

            // Night 1: each repository's first audit records what is there; nothing is new.
            let night1 = try schedule(connection, "2026-11-28")
            try audit(connection, Self.base)
            try renderer.renderAll()
            let firstOverview = try site.html("index.html").replacingOccurrences(of: "<wbr>", with: "")
            #expect(firstOverview.contains("No team has new findings in this run. 18 existing findings were recorded as the baseline"))
            for team in ["payments", "growth", "design-system"] {
                let report = try site.html("teams/\(team)/regressions/run-\(night1).html").replacingOccurrences(of: "<wbr>", with: "")
                #expect(report.contains("0 new, 0 fixed") && report.contains("No new findings: nothing regressed."), "\(team) on night 1")
                #expect(try site.html("teams/\(team)/index.html").contains("0 new findings since the run before"))
            }

            let night2 = try schedule(connection, "2026-11-29")
            try audit(connection, Self.nightTwo)
            try renderer.renderAll()
            let overview = try site.html("index.html").replacingOccurrences(of: "<wbr>", with: "")
            let regressed = try #require(overview.components(separatedBy: "id=\"regressed\"").last)
            let order = ["Growth", "Design System", "Payments"].map { regressed.range(of: ">\($0)</a>")?.lowerBound }
            #expect(order.allSatisfy { $0 != nil } && order == order.sorted { ($0 ?? regressed.endIndex) < ($1 ?? regressed.endIndex) },
                    "Growth (a new requirement-level violation, net ±0) first, then by new findings: \(order)")
            #expect(regressed.contains("teams/growth/regressions/run-\(night2).html"))
            let growthReport = try site.html("teams/growth/regressions/run-\(night2).html").replacingOccurrences(of: "<wbr>", with: "")
            #expect(growthReport.contains("1 new, 1 fixed") && growthReport.contains("Feed.swift"))
            #expect(growthReport.contains("https://github.com/acme/grow-feed/blob/\(String(repeating: "ab", count: 20))/Sources/grow-feed/Feed.swift#L30"),
                    "the new finding links its line at the audited commit")
            #expect(growthReport.contains("<code>.font(.system(size: 11))</code>"), "backticks in the message render as code")

            // A manual run the same day: Design System adds a warning. Both runs of the day keep a report.
            let manual = try schedule(connection, "2026-11-29", kind: .manual)
            try audit(connection) { repository in
                Self.nightTwo(repository) + (repository == "ds-icons"
                    ? [Self.finding("image-asset-name-spoken", kind: .recommendation, .warning, "Sources/ds-icons/Glyph.swift", line: 2, "Image(\"glyph_x\")")]
                    : [])
            }
            try renderer.renderAll()
            let nightReport = try site.html("teams/design-system/regressions/run-\(night2).html").replacingOccurrences(of: "<wbr>", with: "")
            let manualReport = try site.html("teams/design-system/regressions/run-\(manual).html").replacingOccurrences(of: "<wbr>", with: "")
            #expect(nightReport.contains("Row.swift") && !nightReport.contains("Glyph.swift"))
            #expect(manualReport.contains("Glyph.swift") && !manualReport.contains("Row.swift"))
            #expect(manualReport.contains("2026-11-29, manual run \(manual)"))
            let team = try site.html("teams/design-system/index.html").replacingOccurrences(of: "<wbr>", with: "")
            #expect(team.contains("2026-11-29: nightly run \(night2)") && team.contains("2026-11-29: manual run \(manual)"))
            // The trend labels the two runs of the day apart.
            #expect(team.contains("<th scope=\"row\">2026-11-29</th>") && team.contains("<th scope=\"row\">2026-11-29 (manual)</th>"))

            // Night 3: pay-kit fixes the first of its two identical lines. The history reports
            // that line fixed and keeps the second open at its line, with its first night.
            let night3 = try schedule(connection, "2026-11-30")
            let fixedFirst = Self.twins.replacingOccurrences(of: "Text(\"Total\").font(.system(size: 12))\n            Divider()",
                                                             with: "Text(\"Total\").font(.body)\n            Divider()")
            #expect(fixedFirst != Self.twins)
            try audit(connection) { repository in
                repository == "pay-kit" ? Array(Self.base(repository).dropLast(2)) + Self.scanned(fixedFirst) : Self.nightTwo(repository)
            }
            let receipt = try connection.query("""
                SELECT line, first_seen_run, fixed_in_run FROM findings f JOIN repositories r ON r.id = f.repository_id
                WHERE r.name = 'acme/pay-kit' AND f.path = 'Sources/pay-kit/Receipt.swift' ORDER BY line
                """, purpose: "the twins' history")
            #expect(receipt.map { [$0.int("line"), $0.int("first_seen_run"), $0.int("fixed_in_run")] } == [[6, night1, night3], [8, night1, nil]])
            try renderer.renderAll()
            let paymentsReport = try site.html("teams/payments/regressions/run-\(night3).html").replacingOccurrences(of: "<wbr>", with: "")
            #expect(paymentsReport.contains("0 new, 1 fixed"))
            let fixedSection = try #require(paymentsReport.components(separatedBy: "id=\"fixed\"").last)
            #expect(fixedSection.contains("Receipt.swift") && fixedSection.contains("line 6, column") && !fixedSection.contains("line 8, column"),
                    "the fixed line is the first")
            try RollupConsistency.check(connection)
        }
    }
}
