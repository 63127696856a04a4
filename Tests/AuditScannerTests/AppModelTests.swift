import AuditModel
@testable import AuditScanner
import Foundation
import Testing

/// What the scan knows about the app beyond one file: code that never ships and members that
/// nothing reads produce no finding, and the summary says how many were left out.
struct AppModelTests {
    static let files: [String: String] = [
        "App/Typography.swift": """
            import SwiftUI
            enum Typography {
                static let title = Font.system(size: 20)
                static let neverUsed = Font.system(size: 9)
            }
            """,
        "App/Title.swift": """
            import SwiftUI
            struct Title: View {
                var body: some View { Text("Hi").font(Typography.title) }
            }
            """,
        "App/Debug.swift": """
            import SwiftUI
            #if DEBUG
            let debugFont = Font.system(size: 12)
            #endif
            #if !DEBUG
            let releaseFont = Font.system(size: 12)
            #endif
            #Preview { Text("Preview").font(.system(size: 30)) }
            """,
        "AppTests/TitleTests.swift": "import SwiftUI\nlet testFont = Font.system(size: 10)\n",
        "App/Snapshot.swift": "import SwiftUI\nimport XCTest\nlet snapshotFont = Font.system(size: 10)\n",
    ]

    func scan(_ config: AuditConfig?) throws -> ScanReport {
        let repository = try TemporaryRepository()
        for (path, text) in Self.files { try repository.write(path, text) }
        var options = ScanOptions()
        options.config = config
        return try Scanner(options: options).scan(try ScanInput.directory(repository.path, maxFileBytes: 2_000_000),
                                                  root: repository.path)
    }

    @Test func nonShippingCodeAndUnreadMembersAreLeftOutAndCounted() throws {
        let report = try scan(AuditConfig())
        let flagged = Set(report.findings.filter { $0.ruleID == "fixed-font-size" }.map { "\($0.location.file):\($0.location.line)" })
        #expect(flagged == ["App/Typography.swift:3", "App/Debug.swift:6"])
        #expect(report.statistics.skippedTests == 2)
        #expect(report.statistics.findingsNotShipped == 2)
        #expect(report.statistics.findingsUnused >= 1)
        let summaries = report.notes.filter { $0.kind == .summary }.map(\.message)
        #expect(summaries.contains { $0.hasPrefix("2 test files skipped") })
        #expect(summaries.contains { $0.hasPrefix("2 findings left out in #if DEBUG code and previews") })
    }

    @Test func includeNonShippingScansThemAll() throws {
        var config = AuditConfig()
        config.includeNonShipping = true
        let report = try scan(config)
        let files = Set(report.findings.filter { $0.ruleID == "fixed-font-size" }.map(\.location.file))
        #expect(files == ["App/Typography.swift", "App/Debug.swift", "AppTests/TitleTests.swift", "App/Snapshot.swift"])
        #expect(report.statistics.skippedTests == 0)
    }

    @Test func includeNonShippingMustBeABoolean() {
        #expect(throws: AuditConfigError.self) {
            try AuditConfig(data: Data(#"{"includeNonShipping": 1}"#.utf8), file: ".a11y-audit.json", knownRules: [])
        }
    }

    @Test func testPaths() {
        #expect(Scanner.isTestPath("AppTests/A.swift"))
        #expect(Scanner.isTestPath("Sources/App/AppUITests/B.swift"))
        #expect(Scanner.isTestPath("Modules/Feed/FeedViewTests.swift"))
        #expect(!Scanner.isTestPath("App/SpeedTest.swift"), "a screen may be named like a test")
        #expect(!Scanner.isTestPath("App/Latest/List.swift"))
    }
}
