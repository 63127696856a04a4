import AuditModel
import AuditStore
import Dashboard
import DatabaseTestSupport
import Foundation
import OrgModel
import PostgresClient
import SwiftChecks
import Testing

/// What counts as evidence against a Nutrition Label, on the readiness pages and the app's page.
@Suite struct ReadinessEvidenceTests {
    static let config = OrgConfig(
        org: "acme", teams: [OrgConfig.Team(name: "Mobile")],
        repositories: ["has-dark", "lacks-dark", "mac-only", "phone-and-mac"].map {
            OrgConfig.Repository(name: "acme/\($0)", team: "Mobile", archive: "https://github.com/acme/\($0)/archive/{ref}.tar.gz")
        })

    static func missingVariants(_ snippet: String) -> Finding {
        Finding(ruleID: "color-set-missing-variants", kind: .recommendation, severity: .note, certainty: .review,
                location: SourceLocation(file: "App/Assets.xcassets/Brand.colorset/Contents.json", line: 3, column: 5),
                message: "colour set \"Brand\" …", fix: "", citation: Citation("HIG › Color", ""), platforms: PlatformSet(.iOS),
                snippet: snippet)
    }

    static func platforms(_ repository: String) -> PlatformSet? {
        switch repository {
        case "mac-only": PlatformSet(.macOS)
        case "phone-and-mac": PlatformSet([.iOS, .macOS])
        case "lacks-dark": nil
        default: PlatformSet(.iOS)
        }
    }

    /// The database's pattern and `bearsOn` agree on what a snippet says.
    @Test func theSnippetConditionMeansTheSameInTheDatabase() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            let label = NutritionLabel.darkInterface
            let pattern = try #require(label.snippetConditions["color-set-missing-variants"])
            let cases: [(String, Bool)] = [
                ("Brand missing dark,lightIncreasedContrast,darkIncreasedContrast", true),
                ("Brand missing dark", true),
                ("Brand missing lightIncreasedContrast,dark", true),
                ("Brand missing lightIncreasedContrast,darkIncreasedContrast", false),
                ("dark missing lightIncreasedContrast", false),
                ("Brand missing darkIncreasedContrast", false),
            ]
            for (snippet, expected) in cases {
                #expect(label.bearsOn(ruleID: "color-set-missing-variants", snippet: snippet) == expected, "\(snippet)")
                let matched = try connection.query("SELECT $1::text ~ $2::text AS m", [.text(snippet), .text(pattern)], purpose: "match").first?.bool("m")
                #expect(matched == expected, "\(snippet) in PostgreSQL")
            }
            #expect(NutritionLabel.sufficientContrast.bearsOn(ruleID: "color-set-missing-variants", snippet: cases[3].0))
        }
    }

    /// A colour set that has its dark variant and lacks only the increased-contrast ones is no
    /// evidence against Dark Interface (it still is against Sufficient Contrast).
    @Test func darkInterfaceCountsOnlySetsWithoutADarkVariant() throws {
        try TestDatabase.with { database in
            let connection = try database.connect()
            try OrgStore(connection: connection).sync(Self.config)
            _ = try scheduleRun(connection, Self.config, "2026-11-28")
            try auditQueuedJobs(connection, platforms: Self.platforms) { repository in
                switch repository {
                case "has-dark": [Self.missingVariants("Brand missing lightIncreasedContrast,darkIncreasedContrast")]
                case "lacks-dark": [Self.missingVariants("Brand missing dark,lightIncreasedContrast,darkIncreasedContrast")]
                default: []
                }
            }
            let site = try RenderedSite()
            _ = try render(connection, into: site)
            let readiness = try site.html("teams/mobile/readiness.html").replacingOccurrences(of: "<wbr>", with: "")
            func cell(_ app: String, _ label: NutritionLabel) throws -> String {
                let rows = readiness.components(separatedBy: ">acme/\(app)</a>")
                try #require(rows.count == 2, "a row for \(app)")
                let row = rows[1].components(separatedBy: "</tr>")[0]
                let cells = row.components(separatedBy: "data-label=\"\(label.rawValue)\"")
                try #require(cells.count == 2, "a \(label.rawValue) cell for \(app)")
                return cells[1].components(separatedBy: "</td>")[0]
            }
            #expect(try cell("has-dark", .darkInterface).contains("none"))
            #expect(try cell("lacks-dark", .darkInterface).contains("1<span class=\"visually-hidden\"> to check"))
            #expect(try cell("has-dark", .sufficientContrast).contains("1<span class=\"visually-hidden\"> to check"))
            #expect(try cell("lacks-dark", .sufficientContrast).contains("1<span class=\"visually-hidden\"> to check"))
            // The app's page says the same.
            func row(_ app: String, _ label: NutritionLabel) throws -> String {
                let page = try site.html("repos/acme/\(app).html")
                let parts = page.components(separatedBy: "id=\"label-\(HTML.segment(label.rawValue.lowercased()))\"")
                try #require(parts.count == 2, "a \(label.rawValue) row on \(app)'s page")
                return parts[1].components(separatedBy: "</tr>")[0]
            }
            #expect(try row("has-dark", .darkInterface).contains("No static blockers found"))

            // Larger Text is not offered for Mac apps: a Mac-only app's cell is n/a, an app that
            // also builds for the Mac gets Apple's caveat, an iPhone-only app none, and an app
            // whose platforms are not known gets it too.
            let caveat = "Not offered for Mac apps"
            #expect(try cell("mac-only", .largerText).contains("n/a"))
            #expect(try row("mac-only", .largerText).contains("n/a") && row("mac-only", .largerText).contains(caveat))
            #expect(try !cell("phone-and-mac", .largerText).contains("n/a"))
            #expect(try row("phone-and-mac", .largerText).contains(caveat) && !row("phone-and-mac", .largerText).contains("n/a"))
            #expect(try !row("has-dark", .largerText).contains(caveat))
            #expect(try row("lacks-dark", .largerText).contains(caveat))
            #expect(try connection.query("SELECT array_to_string(platforms, ',') AS p FROM repositories WHERE name = 'acme/phone-and-mac'",
                                         purpose: "read").first?.string("p") == "ios,macos")
        }
    }
}
